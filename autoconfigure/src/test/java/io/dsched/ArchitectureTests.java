package io.dsched;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.dsched.internal.store.DatabasePlatform;
import java.sql.DatabaseMetaData;
import org.junit.jupiter.api.Test;

/**
 * The structure of the whole library (extension, core and auto-configuration): no import circle
 * between packages, the core never reaches up into the Boot layer, and what differs between
 * databases is told apart in one place.
 */
class ArchitectureTests {

    private static final JavaClasses LIBRARY = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.dsched");

    @Test
    void packagesImportEachOtherOneWay() {
        slices().matching("io.dsched.(**)").should().beFreeOfCycles().check(LIBRARY);
    }

    @Test
    void theEngineKnowsNothingOfTheBootLayer() {
        noClasses()
                .that()
                .resideOutsideOfPackages(
                        "io.dsched.autoconfigure..",
                        "io.dsched.actuate..",
                        "io.dsched.internal.actuate..",
                        "io.dsched.internal.health..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.dsched.autoconfigure..",
                        "io.dsched.actuate..",
                        "io.dsched.internal.actuate..",
                        "io.dsched.internal.health..")
                .check(LIBRARY);
    }

    /**
     * The auto-configuration wires the internals together; the API a user touches (the
     * annotations, {@code JobScheduler}, the listener, notifier and sanitizer SPIs, the
     * observation conventions) needs none of them.
     */
    @Test
    void theApiNeedsNoInternals() {
        noClasses()
                .that()
                .resideInAPackage("io.dsched..")
                .and()
                .resideOutsideOfPackages("io.dsched.internal..", "io.dsched.autoconfigure..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.dsched.internal..")
                .check(LIBRARY);
    }

    @Test
    void onlyTheDialectsTellTheDatabasesApart() {
        // a comparison with a platform, or a switch over the platforms, reads the enum's constants
        noClasses()
                .that()
                .doNotBelongToAnyOf(DatabasePlatform.class)
                .should()
                .accessField(DatabasePlatform.class, "POSTGRESQL")
                .orShould()
                .accessField(DatabasePlatform.class, "MYSQL")
                .orShould()
                .accessField(DatabasePlatform.class, "H2")
                .orShould()
                .callMethod(DatabasePlatform.class, "ordinal")
                .because("what differs by database belongs in its SqlDialect, chosen once by DatabasePlatform")
                .check(LIBRARY);
    }

    @Test
    void onlyThePlatformAndTheQuartzExtensionReadTheDatabaseProduct() {
        noClasses()
                .that()
                .doNotBelongToAnyOf(DatabasePlatform.class)
                .and()
                .resideOutsideOfPackage("io.dsched.quartz..")
                .should()
                .callMethod(DatabaseMetaData.class, "getDatabaseProductName")
                .because("DatabasePlatform detects the database once; the Quartz extension imports nothing of dsched")
                .check(LIBRARY);
    }
}
