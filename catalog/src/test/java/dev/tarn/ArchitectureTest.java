package dev.tarn;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget.CodeUnitAccessTarget;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnitAccess;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.tarn.format.commit.CommitConflictException;
import dev.tarn.format.commit.CommitRequest;
import dev.tarn.format.commit.CommitStateUnknownException;
import dev.tarn.format.commit.CommitStats;
import dev.tarn.format.commit.TableCommit;
import dev.tarn.format.io.TablePaths;
import dev.tarn.format.lsm.KeyComparator;
import dev.tarn.format.lsm.KeyValueSchema;
import dev.tarn.format.lsm.RowBytes;
import dev.tarn.format.lsm.RowCopier;
import dev.tarn.format.lsm.lookup.CurrentRows;
import dev.tarn.format.lsm.lookup.RowPages;
import dev.tarn.format.lsm.merge.MergeFunction;
import dev.tarn.format.lsm.merge.MergeFunctions;
import dev.tarn.format.lsm.run.BucketTreeReader;
import dev.tarn.format.lsm.tree.BucketTreeWriter;
import dev.tarn.format.lsm.tree.BucketTrees;
import dev.tarn.format.maintenance.FullCompaction;
import dev.tarn.format.maintenance.PendingCheck;
import dev.tarn.format.maintenance.RemoveOrphanFiles;
import dev.tarn.format.maintenance.SnapshotLifecycle;
import dev.tarn.format.maintenance.TableCheck;
import dev.tarn.format.maintenance.TableHealth;
import dev.tarn.format.read.StreamScan;
import dev.tarn.format.read.TableFiles;
import dev.tarn.format.schema.SchemaManager;
import dev.tarn.format.snapshot.Consumers;
import dev.tarn.format.snapshot.SnapshotCommit;
import dev.tarn.format.snapshot.SnapshotManager;
import dev.tarn.format.snapshot.SnapshotReader;
import dev.tarn.format.snapshot.Tags;
import dev.tarn.format.table.TableContext;
import java.util.ArrayList;
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
     * and a streaming read that completes upserts (the current rows of its buckets), and a lookup
     * join, whose stores order a bucket's rows by index key with the key comparator and keep them
     * in the row pages of the current-row index.
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
                    RowBytes.class,
                    KeyComparator.class,
                    RowPages.class,
                    RowPages.Live.class);

    /**
     * What only the {@code Table} façade hands out: a table's context, where its files live, its
     * snapshot and schema managers and its snapshot reader (with their nested types).
     */
    private static final List<Class<?>> TABLE_INTERNALS =
            List.of(
                    TableContext.class,
                    TablePaths.class,
                    SnapshotManager.class,
                    SchemaManager.class,
                    SnapshotReader.class);

    /**
     * The types of {@code format.commit} that code outside {@code format} may use: the committer
     * the façade returns, the request it takes, what a commit reports for metrics, and the typed
     * exceptions callers handle. The rest (staging, retries, attempts, hooks) is the commit's own.
     */
    private static final List<Class<?>> COMMIT_ENTRY_POINTS =
            List.of(
                    TableCommit.class,
                    CommitRequest.class,
                    CommitStats.class,
                    CommitConflictException.class,
                    CommitStateUnknownException.class);

    /**
     * The types of {@code format.maintenance} that code outside {@code format} may use: what the
     * façade's maintenance operations take and return. The classes that run them take the table's
     * context and are reached through the façade only.
     */
    private static final List<Class<?>> MAINTENANCE_VALUES =
            List.of(
                    FullCompaction.Plan.class,
                    FullCompaction.Unit.class,
                    FullCompaction.Result.class,
                    FullCompaction.Result.Files.class,
                    FullCompaction.Result.Dropped.class,
                    FullCompaction.Compactor.class,
                    SnapshotLifecycle.ExpireRequest.class,
                    SnapshotLifecycle.ExpireResult.class,
                    SnapshotLifecycle.RollbackResult.class,
                    RemoveOrphanFiles.Result.class,
                    RemoveOrphanFiles.Removed.class,
                    TableCheck.Result.class,
                    TableCheck.Problem.class,
                    PendingCheck.Result.class,
                    PendingCheck.Missing.class,
                    PendingCheck.RestorePoint.class,
                    PendingCheck.Untouched.class,
                    PendingCheck.UserPending.class,
                    TableHealth.Report.class,
                    TableHealth.Snapshots.class,
                    TableHealth.Level0.class,
                    TableHealth.Files.class,
                    TableHealth.ConsumerLag.class);

    /** What the façade builds for its callers, which never construct it themselves. */
    private static final List<Class<?>> FACADE_PRODUCTS =
            List.of(StreamScan.class, Consumers.class, TableFiles.class, Tags.class);

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

    /**
     * The catalog's parts (procedures, the compaction job, system tables, partitions, statistics)
     * sit below the catalog itself and form no cycle among themselves.
     */
    @Test
    void catalogPackagesAreLayeredBelowTheCatalog() {
        noClasses()
                .that()
                .resideInAPackage("dev.tarn.catalog.*..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.tarn.catalog")
                .check(classes);
        slices().matching("dev.tarn.catalog.(*)..").should().beFreeOfCycles().check(classes);
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
                        c -> {
                            // An array of an entry point (a comparator per key prefix) is one too.
                            JavaClass element = c.isArray() ? c.getBaseComponentType() : c;
                            return LSM_ENTRY_POINTS.stream().anyMatch(element::isEquivalentTo);
                        });
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

    /**
     * The façade is the only door: nothing outside {@code format} depends on a table's context, its
     * managers, its snapshot reader, the atomic publish step, the commit's internals or the classes
     * that run maintenance.
     */
    @Test
    void nothingOutsideFormatReachesPastTheFacade() {
        classes()
                .that()
                .resideOutsideOfPackage("dev.tarn.format..")
                .should(notReachPastTheFacade())
                .check(classes);
    }

    /** Scans, consumers, file listings and tags come from the façade, never built by hand. */
    @Test
    void nothingOutsideFormatBuildsWhatTheFacadeReturns() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.tarn.format..")
                .should()
                .callConstructorWhere(
                        DescribedPredicate.describe(
                                "the owner is one of " + FACADE_PRODUCTS,
                                call ->
                                        FACADE_PRODUCTS.stream()
                                                .anyMatch(
                                                        c ->
                                                                call.getTargetOwner()
                                                                        .isEquivalentTo(c))))
                .check(classes);
    }

    private static ArchCondition<JavaClass> notReachPastTheFacade() {
        return new ArchCondition<>(
                "not depend on a table's context, managers, snapshot reader, publish step, commit"
                        + " internals or maintenance internals") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                for (Dependency d : origin.getDirectDependenciesFromSelf()) {
                    if (pastTheFacade(d.getTargetClass())) {
                        events.add(SimpleConditionEvent.violated(d, d.getDescription()));
                    }
                }
                // A call that hands over or takes an internal reaches past the façade too, though
                // the caller names only the method's owner (table.context(), say).
                for (JavaCodeUnitAccess<?> call : origin.getCodeUnitAccessesFromSelf()) {
                    CodeUnitAccessTarget target = call.getTarget();
                    List<JavaClass> signature = new ArrayList<>(target.getRawParameterTypes());
                    signature.add(target.getRawReturnType());
                    for (JavaClass type : signature) {
                        if (pastTheFacade(type)) {
                            events.add(
                                    SimpleConditionEvent.violated(
                                            call,
                                            call.getDescription()
                                                    + ", which passes "
                                                    + type.getName()));
                        }
                    }
                }
            }
        };
    }

    private static boolean pastTheFacade(JavaClass target) {
        String pkg = target.getPackageName();
        if (TABLE_INTERNALS.stream().anyMatch(c -> isOrNestedIn(target, c))) {
            return true;
        }
        if (target.isAssignableTo(SnapshotCommit.class)) {
            return true;
        }
        if (pkg.equals("dev.tarn.format.commit")) {
            return COMMIT_ENTRY_POINTS.stream().noneMatch(c -> isOrNestedIn(target, c));
        }
        if (pkg.equals("dev.tarn.format.maintenance")) {
            return MAINTENANCE_VALUES.stream().noneMatch(target::isEquivalentTo);
        }
        return false;
    }

    private static boolean isOrNestedIn(JavaClass target, Class<?> type) {
        return target.getName().equals(type.getName())
                || target.getName().startsWith(type.getName() + "$");
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
