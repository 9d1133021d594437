/*
 * A long-lived LanguageTool checker for the content evaluation: one JVM for a whole run (LanguageTool takes
 * ~15 s to start, then milliseconds a text). Reads one JSON object a line on standard input,
 * {"id": any, "text": string}, and answers one line each, {"id": same, "matches": [{rule, category, type,
 * offset, length, message}]}; the first line it writes is {"ready": true}. Which matches count is decided by the
 * caller (scripts/eval/languagetool.ts). Run by java's source-file mode: java -cp 'lib/*' Check.java en-US
 */
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.languagetool.JLanguageTool;
import org.languagetool.Languages;
import org.languagetool.rules.RuleMatch;

public class Check {
  public static void main(String[] args) throws Exception {
    String language = args.length > 0 ? args[0] : "en-US";
    JLanguageTool lt = new JLanguageTool(Languages.getLanguageForShortCode(language));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
    out.println("{\"ready\":true}");
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) continue;
      JsonObject request = JsonParser.parseString(line).getAsJsonObject();
      JsonObject answer = new JsonObject();
      answer.add("id", request.get("id"));
      try {
        JsonArray matches = new JsonArray();
        for (RuleMatch m : lt.check(request.get("text").getAsString())) {
          JsonObject o = new JsonObject();
          o.addProperty("rule", m.getRule().getId());
          o.addProperty("category", m.getRule().getCategory().getId().toString());
          o.addProperty("type", m.getRule().getLocQualityIssueType().toString());
          o.addProperty("offset", m.getFromPos());
          o.addProperty("length", m.getToPos() - m.getFromPos());
          o.addProperty("message", m.getMessage());
          matches.add(o);
        }
        answer.add("matches", matches);
      } catch (Exception e) {
        answer.addProperty("error", String.valueOf(e));
      }
      out.println(answer);
    }
  }
}
