package io.dsched.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The README's table of properties is the configuration metadata that the build generates from
 * {@link DschedProperties}: same properties, same defaults, same descriptions. The admin UI's
 * properties are checked by its own module.
 */
class ReadmeConfigurationTests {

    @Test
    void theReadmeListsEveryPropertyWithItsDefaultAndDescription() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        String table = readme.substring(
                readme.indexOf("<!-- properties:start -->"), readme.indexOf("<!-- properties:end -->"));
        List<Map<String, Object>> properties = JsonPath.read(
                Files.readString(Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json")),
                "$.properties[*]");

        assertThat(properties).isNotEmpty();
        for (Map<String, Object> property : properties) {
            Object value = property.get("defaultValue");
            if (value instanceof List<?> values) {
                // as it is written in application.properties
                value = String.join(",", values.stream().map(String::valueOf).toList());
            }
            String row = "| `" + property.get("name") + "` | " + ((value != null) ? "`" + value + "` " : "") + "| "
                    + property.get("description") + " |";
            assertThat(table).as("README row of %s", property.get("name")).contains(row);
        }
        // the admin UI's rows (dsched.ui.*) are checked against its own metadata, in admin-ui
        assertThat(table.lines()
                        .filter((line) -> line.startsWith("| `dsched.") || line.startsWith("| `management."))
                        .filter((line) -> !line.startsWith("| `dsched.ui.")))
                .hasSameSizeAs(properties);
    }
}
