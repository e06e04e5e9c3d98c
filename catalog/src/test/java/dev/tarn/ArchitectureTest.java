package dev.tarn;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.RowBytes;
import dev.tarn.format.lsm.RowCopier;
import dev.tarn.format.lsm.lookup.CurrentRows;
import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.lsm.merge.MergeFunctions;
import dev.tarn.format.lsm.run.BucketTreeReader;
import dev.tarn.format.lsm.tree.BucketTreeWriter;
import dev.tarn.format.lsm.tree.BucketTrees;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module and naming rules of CONVENTIONS.md, checked on the compiled classes of format,
 * connector and catalog. No violation is frozen: a rule here holds for all code.
 */
class ArchitectureTest {

    /**
     * The types of {@code format.lsm} that code outside it may use; everything else there is the
     * tree's own and may change without notice. Who uses them: the table writer (the buckets' trees
     * opened with the bucket reader's file opener, each bucket's writer and the changes it hands
     * out), the create- time validation (the buckets' trees), and the table reader (the key-value
     * layout, the merge functions, the bucket's reader and its opener), and the source's reader
     * (the row copier, which writes the rows it hands between threads in Flink's binary format),
     * and a streaming read that completes upserts (the current rows of its buckets).
     */
    private static final List<Class<?>> LSM_ENTRY_POINTS =
            List.of(
                    KeyValueSchema.class,
                    MergeFunction.class,
                    MergeFunctions.class,
                    BucketTrees.class,
                    BucketTreeWriter.class,
                    BucketTreeWriter.Changes.class,
                    BucketTreeReader.class,
                    BucketTreeReader.ColumnOpener.class,
                    CurrentRows.class,
                    CurrentRows.Bucket.class,
                    RowCopier.class,
                    RowBytes.class);

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

    @Test
    void outsideLsmOnlyItsEntryPointsAreUsed() {
        DescribedPredicate<JavaClass> entryPoint =
                DescribedPredicate.describe(
                        "an entry point " + LSM_ENTRY_POINTS,
                        c -> LSM_ENTRY_POINTS.stream().anyMatch(c::isEquivalentTo));
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.tarn.format.lsm..")
                .should()
                .dependOnClassesThat(resideInAPackage("dev.tarn.format.lsm..").and(not(entryPoint)))
                .check(classes);
    }

    /** The parts of the LSM tree build on each other in one direction, without cycles. */
    @Test
    void lsmSubPackagesAreLayered() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("lsm")
                .definedBy("dev.tarn.format.lsm")
                .layer("merge")
                .definedBy("dev.tarn.format.lsm.merge..")
                .layer("sort")
                .definedBy("dev.tarn.format.lsm.sort..")
                .layer("run")
                .definedBy("dev.tarn.format.lsm.run..")
                .layer("compaction")
                .definedBy("dev.tarn.format.lsm.compaction..")
                .layer("lookup")
                .definedBy("dev.tarn.format.lsm.lookup..")
                .layer("tree")
                .definedBy("dev.tarn.format.lsm.tree..")
                .whereLayer("tree")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("compaction")
                .mayOnlyBeAccessedByLayers("tree")
                .whereLayer("lookup")
                .mayOnlyBeAccessedByLayers("tree")
                .whereLayer("run")
                .mayOnlyBeAccessedByLayers("compaction", "lookup", "tree")
                .whereLayer("sort")
                .mayOnlyBeAccessedByLayers("run", "compaction", "lookup", "tree")
                .whereLayer("merge")
                .mayOnlyBeAccessedByLayers("sort", "run", "compaction", "lookup", "tree")
                .check(classes);
    }

    /** Within format, sub-packages too: a package never needs one that needs it back. */
    @Test
    void formatSubPackagesAreFreeOfCycles() {
        slices().matching("dev.tarn.format.(**)").should().beFreeOfCycles().check(classes);
    }

    @Test
    void connectorPackagesAreFreeOfCycles() {
        slices().matching("dev.tarn.connector.(**)").should().beFreeOfCycles().check(classes);
    }
}
