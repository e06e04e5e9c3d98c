package dev.tarn;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module and naming rules of CONVENTIONS.md, checked on the compiled classes of format,
 * connector and catalog. No violation is frozen: a rule here holds for all code.
 */
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes =
                new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("dev.tarn");
    }

    @Test
    void formatDependsOnNeitherConnectorNorCatalog() {
        noClasses()
                .that()
                .resideInAPackage("dev.tarn.format..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.tarn.connector..", "dev.tarn.catalog..")
                .check(classes);
    }

    @Test
    void formatUsesNoFlinkRuntimeOrConnectorApis() {
        noClasses()
                .that()
                .resideInAPackage("dev.tarn.format..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.apache.flink.streaming..",
                        "org.apache.flink.runtime..",
                        "org.apache.flink.api.connector..",
                        "org.apache.flink.table.connector..",
                        "org.apache.flink.table.factories..")
                .check(classes);
    }

    @Test
    void connectorDoesNotDependOnCatalog() {
        noClasses()
                .that()
                .resideInAPackage("dev.tarn.connector..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.tarn.catalog..")
                .check(classes);
    }

    @Test
    void connectorDoesNotReachIntoManifestsOrDataFiles() {
        noClasses()
                .that()
                .resideInAPackage("dev.tarn.connector..")
                .should()
                .dependOnClassesThat()
                .haveSimpleNameStartingWith("Manifest")
                .orShould()
                .dependOnClassesThat()
                .resideInAPackage("dev.tarn.format.parquet..")
                .check(classes);
    }

    @Test
    void formatPackagesAreFreeOfCycles() {
        slices().matching("dev.tarn.format.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void formatPackagesDoNotReachUpToTheFacade() {
        noClasses()
                .that()
                .resideInAPackage("dev.tarn.format.*..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.tarn.format")
                .check(classes);
    }

    @Test
    void catalogDoesNotReachIntoManifestsOrDataFiles() {
        noClasses()
                .that()
                .resideInAPackage("dev.tarn.catalog..")
                .should()
                .dependOnClassesThat()
                .haveSimpleNameStartingWith("Manifest")
                .orShould()
                .dependOnClassesThat()
                .haveSimpleName("LiveFiles")
                .orShould()
                .dependOnClassesThat()
                .haveSimpleName("DataFileCodec")
                .orShould()
                .dependOnClassesThat()
                .resideInAPackage("dev.tarn.format.parquet..")
                .check(classes);
    }

    @Test
    void noUtilityDumpingGrounds() {
        noClasses()
                .should()
                .haveSimpleNameEndingWith("Util")
                .orShould()
                .haveSimpleNameEndingWith("Utils")
                .orShould()
                .resideInAPackage("..util..")
                .check(classes);
    }

    @Test
    void flinkFacingClassesCarryTheProductPrefix() {
        classes()
                .that()
                .resideInAPackage("dev.tarn.connector..")
                .and()
                .areTopLevelClasses()
                .and()
                .implement(org.apache.flink.api.connector.source.Source.class)
                .or()
                .implement(org.apache.flink.api.connector.sink2.Sink.class)
                .or()
                .implement(org.apache.flink.api.connector.source.SplitEnumerator.class)
                .or()
                .implement(org.apache.flink.api.connector.source.SourceReader.class)
                .or()
                .implement(org.apache.flink.table.factories.Factory.class)
                .should()
                .haveSimpleNameStartingWith("Tarn")
                .check(classes);
    }
}
