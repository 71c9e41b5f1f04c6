import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * The reference side of ZeroPii's number-format differential test
 * (Tests/ZeroPiiWireTests/WireValueFormatJavaTests.swift, Scripts/float-sweep.sh):
 * what this JVM's Float.toString and Double.toString return. Scripts/java/SwiftNumberStrings.swift
 * is the Swift side, with the same modes and output.
 *
 * <pre>
 * version                                 prints the Java feature version (17 for OpenJDK 17)
 * strings float|double BITS OUT           BITS holds little-endian 32-bit (float) or 64-bit
 *                                         (double) bit patterns; OUT gets toString of each,
 *                                         one per line, in the same order
 * hashes float|double BITS BLOCK OUT      one line per BLOCK values of BITS: the FNV-1a 64
 *                                         hash (hex) of their "toString\n" texts
 * sweep FIRST END BLOCK OUT               the same over the float bit patterns FIRST (inclusive)
 *                                         to END (exclusive), NaN and infinities left out;
 *                                         lines are "first-pattern hash"
 * range FIRST END OUT                     "pattern toString" for each finite float pattern
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
            case "strings":
                strings(args[1].equals("float"), readBits(args[2]), args[3]);
                break;
            case "hashes":
                hashes(args[1].equals("float"), readBits(args[2]), Integer.parseInt(args[3]), args[4]);
                break;
            case "sweep":
                sweep(Long.decode(args[1]), Long.decode(args[2]), Long.decode(args[3]), args[4]);
                break;
            case "range":
                range(Long.decode(args[1]), Long.decode(args[2]), args[3]);
                break;
            default:
                System.err.println("JavaNumberStrings: unknown mode " + args[0]);
                System.exit(2);
        }
    }

    private static ByteBuffer readBits(String path) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(Paths.get(path))).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static String next(boolean isFloat, ByteBuffer bits) {
        return isFloat ? Float.toString(Float.intBitsToFloat(bits.getInt())) : Double.toString(Double.longBitsToDouble(bits.getLong()));
    }

    private static OutputStream open(String path) throws IOException {
        return new BufferedOutputStream(new FileOutputStream(path), 1 << 20);
    }

    private static void writeLine(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.US_ASCII));
        out.write('\n');
    }

    private static long hash(long hash, String text) {
        for (int i = 0; i < text.length(); i++) {
            hash = (hash ^ text.charAt(i)) * FNV_PRIME;
        }
        return (hash ^ '\n') * FNV_PRIME;
    }

    private static void strings(boolean isFloat, ByteBuffer bits, String outPath) throws IOException {
        int width = isFloat ? 4 : 8;
        try (OutputStream out = open(outPath)) {
            while (bits.remaining() >= width) {
                writeLine(out, next(isFloat, bits));
            }
        }
    }

    private static void hashes(boolean isFloat, ByteBuffer bits, int block, String outPath) throws IOException {
        int width = isFloat ? 4 : 8;
        try (OutputStream out = open(outPath)) {
            while (bits.remaining() >= width) {
                long hash = FNV_OFFSET;
                for (int i = 0; i < block && bits.remaining() >= width; i++) {
                    hash = hash(hash, next(isFloat, bits));
                }
                writeLine(out, Long.toHexString(hash));
            }
        }
    }

    private static void sweep(long first, long end, long block, String outPath) throws IOException {
        try (OutputStream out = open(outPath)) {
            for (long start = first; start < end; start += block) {
                long hash = FNV_OFFSET;
                long stop = Math.min(end, start + block);
                for (long pattern = start; pattern < stop; pattern++) {
                    float value = Float.intBitsToFloat((int) pattern);
                    if (!Float.isNaN(value) && !Float.isInfinite(value)) {
                        hash = hash(hash, Float.toString(value));
                    }
                }
                writeLine(out, Long.toHexString(start) + " " + Long.toHexString(hash));
            }
        }
    }

    private static void range(long first, long end, String outPath) throws IOException {
        try (OutputStream out = open(outPath)) {
            for (long pattern = first; pattern < end; pattern++) {
                float value = Float.intBitsToFloat((int) pattern);
                if (!Float.isNaN(value) && !Float.isInfinite(value)) {
                    writeLine(out, Long.toHexString(pattern) + " " + Float.toString(value));
                }
            }
        }
    }
}
