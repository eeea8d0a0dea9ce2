import ActivityPOSIX
import ActivityTerminal
import ActivityWire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How live OTLP export is configured: `--otlp-endpoint`, and the OpenTelemetry environment
/// variables as the specification defines them.
///
/// - `--otlp-endpoint URL` and `OTEL_EXPORTER_OTLP_ENDPOINT` are base URLs: `v1/traces` is
///   appended. `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is used as it is. The option wins, then
///   the traces variable, then the general one. With none of them, nothing is exported.
/// - `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` turn off export configured by the
///   environment (not an explicit `--otlp-endpoint`).
/// - `OTEL_EXPORTER_OTLP_[TRACES_]HEADERS` (`key=value,…`, values percent-encoded) are sent
///   with every request; `OTEL_EXPORTER_OTLP_[TRACES_]TIMEOUT` (milliseconds, default 10000)
///   bounds each request.
/// - `OTEL_SERVICE_NAME` sets `service.name`, over `OTEL_RESOURCE_ATTRIBUTES`
///   (`key=value,…`); the default is `activity`.
/// - `OTEL_BSP_MAX_QUEUE_SIZE` (2048), `OTEL_BSP_MAX_EXPORT_BATCH_SIZE` (512) and
///   `OTEL_BSP_SCHEDULE_DELAY` (milliseconds, here 1000) size the batches.
///
/// - For `https`, `OTEL_EXPORTER_OTLP_[TRACES_]CERTIFICATE` names the CA certificates to trust
///   (the system's by default), `…CLIENT_CERTIFICATE` and `…CLIENT_KEY` a client certificate;
///   each must be a readable file. https needs libcurl at run time (``HTTPPoster``).
///
/// OTLP/HTTP with JSON bodies is sent; not gRPC, not protobuf.
struct OTLPSettings: Sendable {
    var endpoint: HTTPEndpoint
    var headers: [String] = []
    /// The files `https` uses; `nil` ones take libcurl's defaults.
    var tls = HTTPPoster.TLSFiles()
    /// Seconds one request may take, connecting included.
    var timeout = 10.0
    var serviceName = "activity"
    var resourceAttributes: [String: String] = [:]
    var maxQueueSize = 2048
    var maxBatchSize = 512
    /// Seconds between sends while spans trickle in.
    var scheduleDelay = 1.0

    /// The settings, or `nil` when nothing asks for export.
    ///
    /// - Throws: a message naming the option or variable whose URL cannot be used.
    static func resolve(option: String?, environment: (String) -> String?) throws(HTTPEndpoint.Invalid) -> OTLPSettings?
    {
        func value(_ name: String) -> String? { environment(name).flatMap { $0.isEmpty ? nil : $0 } }
        let endpoint: HTTPEndpoint
        if let option {
            endpoint = try named("--otlp-endpoint") { () throws(HTTPEndpoint.Invalid) in try HTTPEndpoint(option) }
                .appendingTracesPath()
        } else {
            if value("OTEL_SDK_DISABLED")?.lowercased() == "true" || value("OTEL_TRACES_EXPORTER") == "none" {
                return nil
            }
            if let traces = value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") {
                endpoint = try named("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") { () throws(HTTPEndpoint.Invalid) in
                    try HTTPEndpoint(traces)
                }
            } else if let base = value("OTEL_EXPORTER_OTLP_ENDPOINT") {
                endpoint = try named("OTEL_EXPORTER_OTLP_ENDPOINT") { () throws(HTTPEndpoint.Invalid) in
                    try HTTPEndpoint(base)
                }.appendingTracesPath()
            } else {
                return nil
            }
        }
        var settings = OTLPSettings(endpoint: endpoint)
        if endpoint.isSecure {
            try settings.readTLSFiles(value)
        }
        let headerVariable =
            value("OTEL_EXPORTER_OTLP_TRACES_HEADERS") != nil
            ? "OTEL_EXPORTER_OTLP_TRACES_HEADERS" : "OTEL_EXPORTER_OTLP_HEADERS"
        for (key, text) in pairs(value(headerVariable) ?? "") {
            // Checked after percent-decoding, by scalar: "\r\n" is one Character, never "\r".
            guard !(key + text).unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                Console.error(
                    "ignoring the header \"\(TerminalSanitizer.escaped(key))\" in \(headerVariable): it holds a control character"
                )
                continue
            }
            settings.headers.append("\(key): \(text)")
        }
        let timeout = value("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT") ?? value("OTEL_EXPORTER_OTLP_TIMEOUT")
        if let milliseconds = timeout.flatMap(Double.init), milliseconds > 0, milliseconds.isFinite {
            settings.timeout = milliseconds / 1000
        }
        let resource = resource(environment: environment)
        settings.serviceName = resource.serviceName
        settings.resourceAttributes = resource.attributes
        if let size = value("OTEL_BSP_MAX_QUEUE_SIZE").flatMap(Int.init), size > 0 { settings.maxQueueSize = size }
        if let size = value("OTEL_BSP_MAX_EXPORT_BATCH_SIZE").flatMap(Int.init), size > 0 {
            settings.maxBatchSize = min(size, settings.maxQueueSize)
        }
        if let delay = value("OTEL_BSP_SCHEDULE_DELAY").flatMap(Double.init), delay >= 0, delay.isFinite {
            settings.scheduleDelay = delay / 1000
        }
        return settings
    }

    /// The certificate files from the environment, each checked now so that a typo is an error at
    /// start naming the variable, not a warning about the collector later; and libcurl, loaded now
    /// for the same reason.
    private mutating func readTLSFiles(_ value: (String) -> String?) throws(HTTPEndpoint.Invalid) {
        func file(_ name: String) throws(HTTPEndpoint.Invalid) -> String? {
            let traces = "OTEL_EXPORTER_OTLP_TRACES_" + name
            let general = "OTEL_EXPORTER_OTLP_" + name
            guard let (variable, path) = value(traces).map({ (traces, $0) }) ?? value(general).map({ (general, $0) })
            else { return nil }
            guard access(path, R_OK) == 0 else {
                throw HTTPEndpoint.Invalid(message: "\(variable) '\(path)': \(SystemError.reason(errno))")
            }
            return path
        }
        tls.certificateAuthority = try file("CERTIFICATE")
        tls.clientCertificate = try file("CLIENT_CERTIFICATE")
        tls.clientKey = try file("CLIENT_KEY")
        if let missing = HTTPPoster.httpsUnavailable() {
            throw HTTPEndpoint.Invalid(message: "'\(endpoint)': \(missing)")
        }
    }

    /// `service.name` and the other resource attributes from the environment.
    static func resource(environment: (String) -> String?) -> (serviceName: String, attributes: [String: String]) {
        var attributes: [String: String] = [:]
        for (key, text) in pairs(environment("OTEL_RESOURCE_ATTRIBUTES") ?? "") { attributes[key] = text }
        let name = environment("OTEL_SERVICE_NAME").flatMap { $0.isEmpty ? nil : $0 }
        return (name ?? attributes["service.name"] ?? "activity", attributes)
    }

    /// `key=value,key=value` as the OpenTelemetry variables write lists, values percent-decoded.
    static func pairs(_ list: String) -> [(String, String)] {
        list.split(separator: ",").compactMap { item in
            guard let equals = item.firstIndex(of: "=") else { return nil }
            let key = item[..<equals].trimmingSpaces
            guard !key.isEmpty else { return nil }
            return (key, percentDecoded(item[item.index(after: equals)...].trimmingSpaces))
        }
    }

    private static func percentDecoded(_ text: String) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func named(
        _ name: String, _ parse: () throws(HTTPEndpoint.Invalid) -> HTTPEndpoint
    ) throws(HTTPEndpoint.Invalid) -> HTTPEndpoint {
        do { return try parse() } catch { throw HTTPEndpoint.Invalid(message: "\(name) \(error.message)") }
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
