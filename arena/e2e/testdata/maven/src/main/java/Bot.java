import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A Maven-built stdio bot that always throws rock: it exercises the pom.xml recipe. */
public class Bot {
  private static final Pattern STEP = Pattern.compile("\"step\"\\s*:\\s*\"?(\\d+)");

  public static void main(String[] args) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
    String line;
    while ((line = in.readLine()) != null) {
      Matcher m = STEP.matcher(line);
      if (line.contains("\"describe\"")) {
        System.out.println("{\"name\":\"maven-rock\",\"sdk\":\"java-maven/test\"}");
      } else if (line.contains("\"act\"") && m.find()) {
        System.out.println("{\"step\":\"" + m.group(1) + "\",\"dynamite\":{\"move\":\"DYNAMITE_MOVE_ROCK\"}}");
      } else {
        System.out.println("{}");
      }
      System.out.flush();
    }
  }
}
