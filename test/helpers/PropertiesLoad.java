// Reads each file named on the command line with java.util.Properties.load (UTF-8) and
// prints one JSON object of its keys and values per line: the Java reader itself is the
// judge of what the properties adapter writes (test/formats/properties.test.ts).
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.TreeSet;

public class PropertiesLoad {
  public static void main(String[] args) throws Exception {
    for (String path : args) {
      Properties properties = new Properties();
      try (InputStreamReader reader = new InputStreamReader(new FileInputStream(path), StandardCharsets.UTF_8)) {
        properties.load(reader);
      }
      StringBuilder out = new StringBuilder("{");
      boolean first = true;
      for (String key : new TreeSet<>(properties.stringPropertyNames())) {
        if (!first) out.append(',');
        first = false;
        out.append(json(key)).append(':').append(json(properties.getProperty(key)));
      }
      System.out.println(out.append('}'));
    }
  }

  private static String json(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      if (c == '"' || c == '\\') out.append('\\').append(c);
      else if (c < 0x20 || c > 0x7e) out.append(String.format("\\u%04x", (int) c));
      else out.append(c);
    }
    return out.append('"').toString();
  }
}
