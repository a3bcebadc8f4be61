package io.dsched.quartz;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** What the clustering extension may depend on, so that any Quartz application can use it alone. */
class ModuleBoundaryTests {

    private static final JavaClasses EXTENSION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.dsched.quartz");

    @Test
    void dependsOnQuartzJdbcSlf4jAndSpringsCronExpressionAlone() {
        classes()
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(
                        "io.dsched.quartz..",
                        "java..",
                        "javax.sql..",
                        "org.quartz..",
                        "org.slf4j..",
                        "org.springframework.scheduling.support..")
                .check(EXTENSION);
    }
}
