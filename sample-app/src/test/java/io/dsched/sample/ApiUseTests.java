package io.dsched.sample;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The sample application is written as a user writes one: with dsched's API alone, none of
 * {@code io.dsched.internal}, which carries no compatibility promise.
 */
class ApiUseTests {

    private static final JavaClasses SAMPLE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.dsched.sample");

    @Test
    void theSampleUsesNoInternals() {
        noClasses()
                .that()
                .resideInAPackage("io.dsched.sample..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.dsched.internal..")
                .check(SAMPLE);
    }
}
