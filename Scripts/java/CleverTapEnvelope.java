import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.KeyGenerator;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The Java side of ZeroPii's interop check for the CleverTap-compatible envelope
 * (Docs/Protocol.md section 9; IntegrationTests/CleverTapEnvelopeJavaTests.swift runs it).
 * It seals and opens bodies the way CleverTap's Android ZeroPii SDK does, with
 * javax.crypto alone: a KeyGenerator AES key of 256 bits, Cipher "AES/GCM/NoPadding"
 * with the IV the cipher generates (12 bytes, 128-bit tag appended to the ciphertext
 * by doFinal), and java.util.Base64's basic encoder (standard alphabet, padded, no
 * line breaks).
 *
 * <pre>
 * client BASE_URL ACCESS_TOKEN VALUE BATCH_VALUE...
 *     POSTs {"value": VALUE} to BASE_URL/ct-vault/api/v2/tokenize and
 *     {"values": [BATCH_VALUE...]} to .../tokenize/batch with "Encrypted: true", both
 *     sealed with one key (the Android SDK keeps one per instance), and prints one line
 *     per request: "tokenize STATUS JSON" or "batch STATUS JSON", JSON being the opened
 *     answer of a 2xx and the plain error body otherwise
 * open REQUEST_BODY OUT
 *     opens a {"itp","itk","itv"} request body (as the Swift SDK sealed it) and writes
 *     the plaintext to OUT
 * seal REQUEST_BODY RESPONSE_PLAINTEXT OUT
 *     seals RESPONSE_PLAINTEXT with the key of REQUEST_BODY and a fresh IV, as
 *     {"itp","itv"}, into OUT
 * </pre>
 *
 * Any failure (a field that is missing, a key that is not 32 bytes, an IV that is not
 * 12, a tag that does not verify) ends the program with status 1 and a message.
 */
public final class CleverTapEnvelope {
    private static final int TAG_BITS = 128;
    private static final int KEY_BYTES = 32;
    private static final int IV_BYTES = 12;

    public static void main(String[] arguments) throws Exception {
        if (arguments.length == 0) {
            fail("usage: client BASE_URL TOKEN VALUE BATCH_VALUE... | open REQUEST OUT | seal REQUEST PLAINTEXT OUT");
        }
        switch (arguments[0]) {
            case "client":
                if (arguments.length < 5) fail("client needs BASE_URL ACCESS_TOKEN VALUE BATCH_VALUE...");
                client(arguments);
                break;
            case "open": {
                if (arguments.length != 3) fail("open needs REQUEST_BODY OUT");
                String request = read(arguments[1]);
                byte[] plaintext = open(field(request, "itp"), field(request, "itv"), key(field(request, "itk")));
                Files.write(Paths.get(arguments[2]), plaintext);
                break;
            }
            case "seal": {
                if (arguments.length != 4) fail("seal needs REQUEST_BODY RESPONSE_PLAINTEXT OUT");
                String request = read(arguments[1]);
                SecretKey key = key(field(request, "itk"));
                byte[] plaintext = Files.readAllBytes(Paths.get(arguments[2]));
                Files.write(Paths.get(arguments[3]), seal(plaintext, key, false).getBytes(StandardCharsets.UTF_8));
                break;
            }
            default:
                fail("unknown mode " + arguments[0]);
        }
    }

    /** What the Android SDK does per instance: one fresh AES-256 key. */
    private static SecretKey newKey() throws Exception {
        KeyGenerator generator = KeyGenerator.getInstance("AES");
        generator.init(256);
        return generator.generateKey();
    }

    /** {"itp","itk","itv"} for a request (withKey) or {"itp","itv"} for a response. */
    private static String seal(byte[] plaintext, SecretKey key, boolean withKey) throws Exception {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.ENCRYPT_MODE, key);
        byte[] iv = cipher.getIV();
        if (iv.length != IV_BYTES) fail("the cipher generated a " + iv.length + "-byte IV");
        byte[] sealed = cipher.doFinal(plaintext);
        Base64.Encoder base64 = Base64.getEncoder();
        StringBuilder body = new StringBuilder("{\"itp\":\"").append(base64.encodeToString(sealed)).append('"');
        if (withKey) body.append(",\"itk\":\"").append(base64.encodeToString(key.getEncoded())).append('"');
        return body.append(",\"itv\":\"").append(base64.encodeToString(iv)).append("\"}").toString();
    }

    private static byte[] open(String itp, String itv, SecretKey key) throws Exception {
        byte[] iv = Base64.getDecoder().decode(itv);
        if (iv.length != IV_BYTES) fail("itv holds " + iv.length + " bytes, not " + IV_BYTES);
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
        return cipher.doFinal(Base64.getDecoder().decode(itp));
    }

    private static SecretKey key(String itk) {
        byte[] bytes = Base64.getDecoder().decode(itk);
        if (bytes.length != KEY_BYTES) fail("itk holds " + bytes.length + " bytes, not " + KEY_BYTES);
        return new SecretKeySpec(bytes, "AES");
    }

    private static void client(String[] arguments) throws Exception {
        String base = arguments[1].endsWith("/") ? arguments[1] : arguments[1] + "/";
        String token = arguments[2];
        SecretKey key = newKey();
        String single = "{\"value\":" + quoted(arguments[3]) + "}";
        StringBuilder batch = new StringBuilder("{\"values\":[");
        for (int index = 4; index < arguments.length; index++) {
            if (index > 4) batch.append(',');
            batch.append(quoted(arguments[index]));
        }
        batch.append("]}");
        post("tokenize", base + "ct-vault/api/v2/tokenize", token, single, key);
        post("batch", base + "ct-vault/api/v2/tokenize/batch", token, batch.toString(), key);
    }

    private static void post(String label, String url, String token, String plaintext, SecretKey key) throws Exception {
        HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
        connection.setRequestMethod("POST");
        connection.setDoOutput(true);
        connection.setRequestProperty("Authorization", "Bearer " + token);
        connection.setRequestProperty("Content-Type", "application/json");
        connection.setRequestProperty("Accept", "application/json");
        connection.setRequestProperty("Encrypted", "true");
        byte[] body = seal(plaintext.getBytes(StandardCharsets.UTF_8), key, true).getBytes(StandardCharsets.UTF_8);
        try (OutputStream output = connection.getOutputStream()) {
            output.write(body);
        }
        int status = connection.getResponseCode();
        InputStream stream = status >= 200 && status < 300 ? connection.getInputStream() : connection.getErrorStream();
        String answer = stream == null ? "" : new String(readAll(stream), StandardCharsets.UTF_8);
        String shown = status >= 200 && status < 300
            ? new String(open(field(answer, "itp"), field(answer, "itv"), key), StandardCharsets.UTF_8)
            : answer;
        System.out.println(label + " " + status + " " + shown);
    }

    /** A string field of a flat JSON object whose values hold no quotes (Base64). */
    private static String field(String json, String name) {
        Matcher matcher = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        if (!matcher.find()) fail("the body has no \"" + name + "\" string");
        return matcher.group(1).replace("\\/", "/");
    }

    private static String quoted(String text) {
        StringBuilder result = new StringBuilder("\"");
        for (char character : text.toCharArray()) {
            if (character == '"' || character == '\\') result.append('\\');
            result.append(character);
        }
        return result.append('"').toString();
    }

    private static String read(String path) throws IOException {
        return new String(Files.readAllBytes(Paths.get(path)), StandardCharsets.UTF_8);
    }

    private static byte[] readAll(InputStream stream) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int count; (count = stream.read(buffer)) > 0; ) bytes.write(buffer, 0, count);
        return bytes.toByteArray();
    }

    private static void fail(String message) {
        System.err.println("CleverTapEnvelope: " + message);
        System.exit(1);
    }
}
