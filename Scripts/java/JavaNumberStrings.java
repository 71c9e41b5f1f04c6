import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * The reference side of ZeroPii's number-format differential test: what this JVM's
 * Float.toString and Double.toString return, for bit patterns chosen by the Swift side.
 *
 * <pre>
 * java JavaNumberStrings version
 *     prints the Java feature version (17 for OpenJDK 17)
 * java JavaNumberStrings float|double BITS_FILE OUT_FILE
 *     BITS_FILE holds little-endian 32-bit (float) or 64-bit (double) bit patterns;
 *     OUT_FILE gets toString of each, one per line, in the same order
 * java JavaNumberStrings float-sweep FIRST END BLOCK OUT_FILE
 *     for the float bit patterns FIRST (inclusive) to END (exclusive), skipping NaN and
 *     the infinities, writes one line per BLOCK patterns: the block's first pattern and
 *     the FNV-1a 64 hash of "toString\n" over its finite values (both in hex)
 * java JavaNumberStrings float-range FIRST END OUT_FILE
 *     toString of every finite float bit pattern from FIRST to END, "bits string" per line
 * </pre>
 */
public final class JavaNumberStrings {
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    public static void main(String[] args) throws IOException {
        switch (args[0]) {
            case "version":
                System.out.println(Runtime.version().feature());
                break;
            case "float":
                floats(args[1], args[2]);
                break;
            case "double":
                doubles(args[1], args[2]);
                break;
            case "float-sweep":
                floatSweep(Long.decode(args[1]), Long.decode(args[2]), Long.decode(args[3]), args[4]);
                break;
            case "float-range":
                floatRange(Long.decode(args[1]), Long.decode(args[2]), args[3]);
                break;
            default:
                System.err.println("unknown mode " + args[0]);
                System.exit(2);
        }
    }

    private static OutputStream open(String path) throws IOException {
        return new BufferedOutputStream(new FileOutputStream(path), 1 << 20);
    }

    private static void writeLine(OutputStream out, String text) throws IOException {
        for (int i = 0; i < text.length(); i++) {
            out.write(text.charAt(i));
        }
        out.write('\n');
    }

    private static void floats(String bitsPath, String outPath) throws IOException {
        ByteBuffer bits = ByteBuffer.wrap(Files.readAllBytes(Paths.get(bitsPath))).order(ByteOrder.LITTLE_ENDIAN);
        try (OutputStream out = open(outPath)) {
            while (bits.remaining() >= 4) {
                writeLine(out, Float.toString(Float.intBitsToFloat(bits.getInt())));
            }
        }
    }

    private static void doubles(String bitsPath, String outPath) throws IOException {
        ByteBuffer bits = ByteBuffer.wrap(Files.readAllBytes(Paths.get(bitsPath))).order(ByteOrder.LITTLE_ENDIAN);
        try (OutputStream out = open(outPath)) {
            while (bits.remaining() >= 8) {
                writeLine(out, Double.toString(Double.longBitsToDouble(bits.getLong())));
            }
        }
    }

    private static void floatSweep(long first, long end, long block, String outPath) throws IOException {
        try (PrintStream out = new PrintStream(open(outPath), false, StandardCharsets.US_ASCII)) {
            for (long start = first; start < end; start += block) {
                long hash = FNV_OFFSET;
                long stop = Math.min(end, start + block);
                for (long pattern = start; pattern < stop; pattern++) {
                    float value = Float.intBitsToFloat((int) pattern);
                    if (Float.isNaN(value) || Float.isInfinite(value)) {
                        continue;
                    }
                    String text = Float.toString(value);
                    for (int i = 0; i < text.length(); i++) {
                        hash = (hash ^ text.charAt(i)) * FNV_PRIME;
                    }
                    hash = (hash ^ '\n') * FNV_PRIME;
                }
                out.println(Long.toHexString(start) + " " + Long.toHexString(hash));
            }
        }
    }

    private static void floatRange(long first, long end, String outPath) throws IOException {
        try (PrintStream out = new PrintStream(open(outPath), false, StandardCharsets.US_ASCII)) {
            for (long pattern = first; pattern < end; pattern++) {
                float value = Float.intBitsToFloat((int) pattern);
                if (!Float.isNaN(value) && !Float.isInfinite(value)) {
                    out.println(Long.toHexString(pattern) + " " + Float.toString(value));
                }
            }
        }
    }
}
