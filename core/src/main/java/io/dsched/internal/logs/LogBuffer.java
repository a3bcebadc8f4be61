package io.dsched.internal.logs;

/**
 * The text one attempt has logged so far, one event per line, kept up to a number of bytes of
 * UTF-8: beyond it, the first part is kept (the line that did not fit is cut) and the events that
 * follow are only counted. Used by the attempt's thread alone.
 */
final class LogBuffer {

    private final long executionId;

    private final int maxBytes;

    private final StringBuilder text = new StringBuilder();

    private int bytes;

    private boolean truncated;

    private int left;

    LogBuffer(long executionId, int maxBytes) {
        this.executionId = executionId;
        this.maxBytes = Math.max(0, maxBytes);
    }

    long executionId() {
        return this.executionId;
    }

    boolean isTruncated() {
        return this.truncated;
    }

    boolean isEmpty() {
        return this.text.isEmpty() && !this.truncated;
    }

    /** Counts an event left out once the buffer is full, without formatting it. */
    void leaveOut() {
        this.left++;
    }

    void append(String event) {
        if (this.truncated) {
            leaveOut();
            return;
        }
        int size = utf8Length(event) + 1;
        if (this.bytes + size <= this.maxBytes) {
            this.text.append(event).append('\n');
            this.bytes += size;
            return;
        }
        int end = fitting(event, this.maxBytes - this.bytes);
        if (end > 0) {
            this.text.append(event, 0, end).append('\n');
        } else {
            this.left++;
        }
        this.truncated = true;
    }

    String text() {
        if (!this.truncated) {
            return this.text.toString();
        }
        return this.text + "… truncated at " + this.maxBytes + " bytes: " + this.left
                + ((this.left == 1) ? " more log event" : " more log events") + " left out\n";
    }

    /** The length of the longest start of the text that takes at most this many bytes, with its line end. */
    private static int fitting(String text, int room) {
        int bytes = 1;
        int end = 0;
        while (end < text.length()) {
            int codePoint = text.codePointAt(end);
            bytes += utf8Size(codePoint);
            if (bytes > room) {
                break;
            }
            end += Character.charCount(codePoint);
        }
        return end;
    }

    private static int utf8Length(String text) {
        int bytes = 0;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            bytes += utf8Size(codePoint);
            i += Character.charCount(codePoint);
        }
        return bytes;
    }

    private static int utf8Size(int codePoint) {
        if (codePoint < 0x80) {
            return 1;
        }
        if (codePoint < 0x800) {
            return 2;
        }
        return (codePoint < 0x10000) ? 3 : 4;
    }
}
