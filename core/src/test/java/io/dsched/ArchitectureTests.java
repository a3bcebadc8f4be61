package io.dsched;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The structure of the engine: its packages import each other one way, and nothing of Spring Boot. */
class ArchitectureTests {

    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.dsched");

    @Test
    void packagesImportEachOtherOneWay() {
        slices().matching("io.dsched.(*)..").should().beFreeOfCycles().check(ENGINE);
    }

    @Test
    void coreImportsNothingOfSpringBoot() {
        noClasses()
                .that()
                .resideInAPackage("io.dsched..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.springframework.boot..")
                .check(ENGINE);
    }

    @Test
    void theQuartzExtensionImportsNothingOfDsched() {
        noClasses()
                .that()
                .resideInAPackage("io.dsched.quartz..")
                .should()
                .dependOnClassesThat()
                .resideOutsideOfPackages("io.dsched.quartz..", "java..", "javax..", "org..")
                .check(ENGINE);
    }
}
