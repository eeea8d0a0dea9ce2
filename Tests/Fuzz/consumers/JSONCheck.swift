import Foundation

/// Whether an exporter's output is one JSON document a trace viewer can parse.
enum JSONCheck {
    static func document(_ text: String, _ consumer: Consumer) {
        let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        check(parsed is [String: Any], consumer, "not a JSON object: \(text.prefix(300))")
    }
}
