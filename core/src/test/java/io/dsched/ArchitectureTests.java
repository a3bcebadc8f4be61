package io.dsched;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The structure of the engine: its packages import each other one way, nothing of Spring Boot,
 * and its API nothing of its internals.
 */
class ArchitectureTests {

    private static final JavaClasses ENGINE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.dsched");

    @Test
    void packagesImportEachOtherOneWay() {
        slices().matching("io.dsched.(**)").should().beFreeOfCycles().check(ENGINE);
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

    /**
     * The stages of an attempt's pipeline, in their order: none depends on one before it, nor on
     * the runner that walks an attempt through them or the intakes that claim attempts. What a
     * stage hands forward (the call's result, the verdict, the permits, the attempt) are types
     * nested in the stages or of their own, not stages.
     */
    @Test
    void thePipelinesStagesDependOnlyForward() {
        List<String> stages =
                List.of("Admission", "GuardAdmission", "Invocation", "Verdicts", "Recording", "AttemptReport");
        for (int stage = 1; stage < stages.size(); stage++) {
            List<String> earlier = stages.subList(0, stage).stream()
                    .map((name) -> "io.dsched.internal.execution." + name)
                    .toList();
            noClasses()
                    .that()
                    .haveNameMatching(stageClasses(stages.get(stage)))
                    .should()
                    .dependOnClassesThat(
                            DescribedPredicate.describe("an earlier stage", (type) -> earlier.contains(type.getName())))
                    .check(ENGINE);
        }
        noClasses()
                .that()
                .haveNameMatching(stageClasses(String.join(
                        "|",
                        Stream.concat(stages.stream(), HANDED_FORWARD.stream()).toList())))
                .should()
                .dependOnClassesThat()
                .haveNameMatching(
                        "io\\.dsched\\.internal\\.(execution\\.(AttemptRunner|FireExecutor)|queue\\..*|engine\\..*)")
                .check(ENGINE);
    }

    /** What the stages hand forward, held to the same rule as the stages. */
    private static final List<String> HANDED_FORWARD =
            List.of("AdmissionDecision", "Permits", "Permit", "Ticket", "Verdict");

    private static String stageClasses(String names) {
        return "io\\.dsched\\.internal\\.execution\\.(" + names + ")(\\$.*)?";
    }

    /**
     * What a user touches lives outside {@code io.dsched.internal}, and needs nothing inside it:
     * the internals may change in any release, the API only with notice in `CHANGELOG.md`.
     */
    @Test
    void theApiNeedsNoInternals() {
        noClasses()
                .that()
                .resideInAPackage("io.dsched..")
                .and()
                .resideOutsideOfPackage("io.dsched.internal..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.dsched.internal..")
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
