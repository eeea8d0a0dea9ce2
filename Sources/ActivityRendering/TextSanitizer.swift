import ActivityTerminal
import ActivityWire

/// Makes text from the wire safe to show in a terminal or write to a log, for renderers of your own.
///
/// The store already sanitizes the text of every ``ActivityState`` (title, message, unit, error,
/// attribute values); the fields of ``ActivityUpdate/event(in:)`` are as the producer sent them, so a
/// renderer that shows them (a `log` event's message) passes them through here first. Escape
/// sequences, C0 and C1 controls, DEL, bidirectional controls (Trojan Source) and invisible
/// characters are removed; line breaks become spaces. `Docs/rendering.md` lists every rule.
///
/// ```swift
/// TextSanitizer.display("\u{1B}[2Jhello\nworld")   // "hello world"
/// TextSanitizer.escaped("\u{1B}[2Jhello")          // "\\x1b[2Jhello"
/// ```
public enum TextSanitizer {
    /// `text` made safe for a terminal: escape sequences, controls and dangerous invisible
    /// characters removed, line breaks turned into spaces.
    public static func display(_ text: String) -> String {
        TerminalSanitizer.display(text)
    }

    /// `text` with what ``display(_:)`` removes written as visible escapes (`\x1b`, `\u{202e}`,
    /// `\n`): for a log file.
    public static func escaped(_ text: String) -> String {
        TerminalSanitizer.escaped(text)
    }

    /// Raw bytes of a passed-through line made safe for a terminal: invalid UTF-8 becomes U+FFFD,
    /// then ``display(_:)`` applies.
    public static func display(bytes: some Collection<UInt8>) -> [UInt8] {
        TerminalSanitizer.display(bytes: bytes)
    }
}
