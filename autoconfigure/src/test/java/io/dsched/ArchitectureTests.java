package io.dsched;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The structure of the whole library (extension, core and auto-configuration): no import circle
 * between packages, and the core never reaches up into the Boot layer.
 */
class ArchitectureTests {

    private static final JavaClasses LIBRARY = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.dsched");

    @Test
    void packagesImportEachOtherOneWay() {
        slices().matching("io.dsched.(*)..").should().beFreeOfCycles().check(LIBRARY);
    }

    @Test
    void theEngineKnowsNothingOfTheBootLayer() {
        noClasses()
                .that()
                .resideOutsideOfPackages("io.dsched.autoconfigure..", "io.dsched.actuate..", "io.dsched.health..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.dsched.autoconfigure..", "io.dsched.actuate..", "io.dsched.health..")
                .check(LIBRARY);
    }
}
