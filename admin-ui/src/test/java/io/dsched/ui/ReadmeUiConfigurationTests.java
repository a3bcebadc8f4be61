package io.dsched.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The README's table of properties has the admin UI's properties as the metadata that the build
 * generates from {@link DschedUiProperties}: same properties, same defaults, same descriptions.
 */
class ReadmeUiConfigurationTests {

    @Test
    void theReadmeListsEveryPropertyOfTheUiWithItsDefaultAndDescription() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        String table = readme.substring(
                readme.indexOf("<!-- properties:start -->"), readme.indexOf("<!-- properties:end -->"));
        List<Map<String, Object>> properties = JsonPath.read(
                Files.readString(Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json")),
                "$.properties[*]");

        assertThat(properties).isNotEmpty();
        for (Map<String, Object> property : properties) {
            Object value = property.get("defaultValue");
            String row = "| `" + property.get("name") + "` | " + ((value != null) ? "`" + value + "` " : "") + "| "
                    + property.get("description") + " |";
            assertThat(table).as("README row of %s", property.get("name")).contains(row);
        }
        assertThat(table.lines().filter((line) -> line.startsWith("| `dsched.ui.")))
                .hasSameSizeAs(properties);
    }
}
