package dev.tarn.connector;

import dev.tarn.connector.lookup.LookupSettings;
import dev.tarn.connector.sink.TarnTableSink;
import dev.tarn.connector.source.TarnAuditLogTableSource;
import dev.tarn.connector.source.TarnMetadataTableSource;
import dev.tarn.connector.source.TarnTableSource;
import dev.tarn.format.Table;
import dev.tarn.format.TableNotFoundException;
import dev.tarn.format.io.FileIO;
import dev.tarn.format.schema.TableOptions;
import dev.tarn.format.schema.TableSchema;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * Creates Tarn table sources and sinks, for tables of a Tarn catalog and for {@code 'connector' =
 * 'tarn'} tables declared in any catalog. The table is found at its {@code path} (a catalog table
 * carries its location there), or else where its catalog keeps it by name; options given as hints
 * ({@code /*+ OPTIONS(...) *}{@code /}), or in the DDL of a {@code 'connector' = 'tarn'} table, are
 * layered over the stored ones where their scope allows ({@link
 * dev.tarn.format.schema.TableOptions.OptionScope}).
 */
public class TarnDynamicTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {

    public static final String IDENTIFIER = "tarn";

    /** The rows of the catalog's metadata system tables; null outside a Tarn catalog. */
    @Nullable private final MetadataRows metadata;

    /**
     * Table options the catalog gives every table that neither stores nor is given them (its commit
     * lock, say); empty outside a Tarn catalog.
     */
    private final Map<String, String> catalogOptions;

    /**
     * How tables are reached: Flink's file systems, with a catalog's object-store settings, under
     * which each table gets those of the Flink configuration its factory context gives.
     */
    private final FileIO io;

    /**
     * Where the catalog keeps a table, by its name in the catalog (a system table's: its table's);
     * null outside a Tarn catalog, where a table names its {@code path}.
     */
    @Nullable private final Function<ObjectPath, Path> locations;

    /** The factory Flink discovers for {@code 'connector' = 'tarn'}: no system tables. */
    public TarnDynamicTableFactory() {
        this(null);
    }

    /**
     * The factory of a Tarn catalog, which reads its system tables ({@link
     * TarnConnectorOptions#SYSTEM_TABLE}): {@code metadata} computes their rows, except for {@link
     * TarnAuditLogTableSource#NAME}, the table's own read.
     */
    public TarnDynamicTableFactory(@Nullable MetadataRows metadata) {
        this(metadata, FileIO.flinkFileSystems(), Map.of(), null);
    }

    /**
     * As {@link #TarnDynamicTableFactory(MetadataRows)}, reaching tables through {@code io}, with
     * table options of the catalog that apply to each table unless it stores or is given its own
     * value ({@code commit.lock}, ...), finding a table without a {@code path} option at {@code
     * locations} of its name.
     */
    public TarnDynamicTableFactory(
            @Nullable MetadataRows metadata,
            FileIO io,
            Map<String, String> catalogOptions,
            @Nullable Function<ObjectPath, Path> locations) {
        this.metadata = metadata;
        this.io = io;
        this.catalogOptions = Map.copyOf(catalogOptions);
        this.locations = locations;
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(TarnConnectorOptions.PATH);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new HashSet<>(TableOptions.all());
        options.addAll(TarnConnectorOptions.WATERMARK);
        options.addAll(TarnConnectorOptions.LOOKUP);
        options.add(TarnConnectorOptions.SYSTEM_TABLE);
        return options;
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        boolean streaming =
                context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE)
                        != RuntimeExecutionMode.BATCH;
        String system = systemTable(context);
        if (system != null) {
            return systemTableSource(context, system, streaming);
        }
        Table table = load(context);
        return new TarnTableSource(
                table,
                streaming,
                LookupSettings.of(table.name(), context.getCatalogTable().getOptions()));
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        String system = systemTable(context);
        if (system != null) {
            throw new ValidationException(
                    String.format(
                            "Cannot write to table %s: it is the system table '%s' of a Tarn"
                                    + " table, and system tables are read-only",
                            context.getObjectIdentifier().asSummaryString(), system));
        }
        return new TarnTableSink(load(context));
    }

    @Nullable
    private static String systemTable(Context context) {
        return context.getCatalogTable().getOptions().get(TarnConnectorOptions.SYSTEM_TABLE.key());
    }

    /**
     * The source of a system table: the table's own read with each row's kind as a column for
     * {@link TarnAuditLogTableSource#NAME}, else the rows the catalog computes from its metadata
     * now.
     */
    private DynamicTableSource systemTableSource(
            Context context, String system, boolean streaming) {
        String name = context.getObjectIdentifier().asSummaryString();
        RowType rowType =
                (RowType)
                        context.getCatalogTable()
                                .getResolvedSchema()
                                .toPhysicalRowDataType()
                                .getLogicalType();
        Table table = load(context);
        if (system.equals(TarnAuditLogTableSource.NAME)) {
            return new TarnAuditLogTableSource(new TarnTableSource(table, streaming), rowType);
        }
        if (metadata == null) {
            throw new ValidationException(
                    String.format(
                            "Cannot read table %s: system table '%s' is offered only by a Tarn"
                                    + " catalog, as <table>$%s",
                            name, system, system));
        }
        try {
            return new TarnMetadataTableSource(name, rowType, metadata.rows(system, table));
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ValidationException(e.getMessage(), e);
        }
    }

    Table load(Context context) {
        ResolvedCatalogTable catalogTable = context.getCatalogTable();
        Map<String, String> options = new HashMap<>(catalogTable.getOptions());
        catalogOptions.forEach(options::putIfAbsent);
        String name = context.getObjectIdentifier().asSummaryString();
        String path = options.remove(TarnConnectorOptions.PATH.key());
        options.remove(FactoryUtil.CONNECTOR.key());
        boolean system = options.remove(TarnConnectorOptions.SYSTEM_TABLE.key()) != null;
        // Lookup options are the connector's (read by createDynamicTableSource), not the table's.
        TarnConnectorOptions.LOOKUP.forEach(o -> options.remove(o.key()));
        watermarkOptions(name, options);
        Path location;
        if (path != null && !path.isBlank()) {
            location = new Path(path);
        } else if (locations != null) {
            location = locations.apply(context.getObjectIdentifier().toObjectPath());
        } else {
            throw new ValidationException(
                    "Table " + name + " has no 'path' option: set it to the table's location");
        }
        FileIO io = this.io.withFlinkConfiguration(context.getConfiguration());
        Table stored;
        try {
            stored = Table.load(io, location, name);
        } catch (TableNotFoundException e) {
            if (system) {
                // A system table never creates its table: the table was dropped since planning.
                throw new ValidationException(
                        "Cannot read system table " + name + ": " + e.getMessage(), e);
            }
            return createFromDdl(io, catalogTable, location, name, options);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        try {
            return stored.withDynamicOptions(dynamicOptions(stored, options));
        } catch (IllegalArgumentException e) {
            if (catalogTable.getOptions().containsKey(FactoryUtil.CONNECTOR.key())) {
                throw new ValidationException(
                        e.getMessage()
                                + " The options of a 'connector' = '"
                                + IDENTIFIER
                                + "' table's DDL apply as the query's; the table at "
                                + location
                                + " keeps its own.",
                        e);
            }
            throw new ValidationException(e.getMessage(), e);
        }
    }

    /**
     * Takes Flink's watermark options out of {@code options} (the planner reads them itself) and
     * checks them, naming the option and the value. Alignment is refused: a Tarn read's watermark
     * advances snapshot by snapshot for all its readers at once, so there is nothing to align.
     */
    private static void watermarkOptions(String table, Map<String, String> options) {
        Map<String, String> watermark = new HashMap<>();
        for (ConfigOption<?> option : TarnConnectorOptions.WATERMARK) {
            String value = options.remove(option.key());
            if (value == null) {
                continue;
            }
            if (option.key().startsWith("scan.watermark.alignment.")) {
                throw new ValidationException(
                        String.format(
                                "Option '%s' = '%s' of table %s is not supported: a Tarn read's"
                                        + " watermark advances snapshot by snapshot for all its"
                                        + " readers at once, so they never drift apart",
                                option.key(), value, table));
            }
            watermark.put(option.key(), value);
        }
        FactoryUtil.validateWatermarkOptions(IDENTIFIER, Configuration.fromMap(watermark));
    }

    /**
     * Options that differ from the stored ones: per-query hints, and for a {@code 'connector' =
     * 'tarn'} table the options of its DDL; {@link Table#withDynamicOptions} refuses those only the
     * table may set.
     */
    private static Map<String, String> dynamicOptions(Table stored, Map<String, String> options) {
        Map<String, String> dynamic = new HashMap<>();
        options.forEach(
                (k, v) -> {
                    if (!v.equals(stored.schema().options().get(k))) {
                        dynamic.put(k, v);
                    }
                });
        return dynamic;
    }

    private static Table createFromDdl(
            FileIO io,
            ResolvedCatalogTable catalogTable,
            Path location,
            String name,
            Map<String, String> options) {
        RowType rowType =
                (RowType) catalogTable.getResolvedSchema().toPhysicalRowDataType().getLogicalType();
        List<String> primaryKeys =
                catalogTable
                        .getResolvedSchema()
                        .getPrimaryKey()
                        .map(UniqueConstraint::getColumns)
                        .orElse(List.of());
        Map<String, String> stored = new HashMap<>(options);
        TableOptions.queryOnly().forEach(o -> stored.remove(o.key()));
        try {
            TableSchema schema =
                    TableSchema.create(
                            rowType,
                            catalogTable.getPartitionKeys(),
                            primaryKeys,
                            stored,
                            catalogTable.getComment());
            Table created = Table.create(io, location, name, schema);
            return created.withDynamicOptions(options);
        } catch (RuntimeException e) {
            if (e instanceof dev.tarn.format.TableAlreadyExistsException) {
                // Another task created it first.
                return Table.load(io, location, name).withDynamicOptions(options);
            }
            throw new ValidationException(
                    "Cannot create table " + name + " at " + location + ": " + e.getMessage(), e);
        }
    }
}
