package dev.tarn.catalog;

import dev.tarn.format.io.FileIO;
import dev.tarn.format.io.S3Options;
import dev.tarn.format.snapshot.CommitLockOptions;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * Creates a {@link TarnCatalog} for {@code CREATE CATALOG ... WITH ('type' = 'tarn')}. Options are
 * validated by Flink's helper, so a missing {@code warehouse} or an unknown key fails with Flink's
 * usual message; the warehouse itself is only touched when the catalog opens. The table options it
 * accepts ({@link TarnCatalogOptions#tableOptions()}) go to every table of the catalog; the S3 keys
 * ({@link S3Options}) win over those of the session's Flink configuration, which win over Flink's
 * config.yaml, for the catalog's commits to an object store and those of its tables' jobs.
 */
public final class TarnCatalogFactory implements CatalogFactory {

    /** {@code 'type' = 'tarn'}, the same word as the table connector's identifier. */
    public static final String IDENTIFIER = "tarn";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(TarnCatalogOptions.WAREHOUSE);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> options = new HashSet<>(TarnCatalogOptions.tableOptions());
        options.addAll(TarnCatalogOptions.S3);
        options.add(TarnCatalogOptions.DEFAULT_DATABASE);
        return options;
    }

    @Override
    public Catalog createCatalog(Context context) {
        FactoryUtil.CatalogFactoryHelper helper =
                FactoryUtil.createCatalogFactoryHelper(this, context);
        helper.validate();
        String warehouse = helper.getOptions().get(TarnCatalogOptions.WAREHOUSE);
        Map<String, String> tableOptions = new HashMap<>();
        for (ConfigOption<?> option : TarnCatalogOptions.tableOptions()) {
            String value = context.getOptions().get(option.key());
            if (value != null) {
                tableOptions.put(option.key(), value);
            }
        }
        try {
            CommitLockOptions.validate("catalog " + context.getName(), tableOptions);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        return new TarnCatalog(
                context.getName(),
                warehousePath(context.getName(), warehouse),
                helper.getOptions().get(TarnCatalogOptions.DEFAULT_DATABASE),
                FileIO.flinkFileSystems(S3Options.of(context.getOptions()))
                        .withFlinkConfiguration(context.getConfiguration()),
                tableOptions);
    }

    private static Path warehousePath(String catalog, String warehouse) {
        Path path;
        try {
            path = new Path(warehouse);
        } catch (IllegalArgumentException e) {
            throw new ValidationException(
                    String.format(
                            "Invalid option 'warehouse' of catalog %s: '%s' is not a path or URI:"
                                    + " %s",
                            catalog, warehouse, e.getMessage()),
                    e);
        }
        if (path.toUri().getScheme() == null && !path.isAbsolute()) {
            throw new ValidationException(
                    String.format(
                            "Invalid option 'warehouse' of catalog %s: '%s' is relative; use an"
                                    + " absolute URI such as 'file:///data/lake'",
                            catalog, warehouse));
        }
        return path;
    }
}
