/// Where to post: an `http://` URL taken apart. `https` is refused with a message saying what to
/// do instead (TLS is out of scope: point the exporter at a local Collector, which forwards over
/// TLS).
struct HTTPEndpoint: Sendable, Equatable, CustomStringConvertible {
    var host: String
    var port: UInt16
    /// The path with any query: `/v1/traces`.
    var path: String

    /// Why a URL cannot be used.
    struct Invalid: Error, Equatable {
        var message: String
    }

    init(host: String, port: UInt16, path: String) {
        self.host = host
        self.port = port
        self.path = path
    }

    init(_ url: String) throws(Invalid) {
        let lowered = url.lowercased()
        if lowered.hasPrefix("https://") {
            throw Invalid(
                message: "'\(url)': https is not supported; send to a local OpenTelemetry Collector over http "
                    + "(http://localhost:4318) and let it forward over TLS")
        }
        guard lowered.hasPrefix("http://") else {
            throw Invalid(message: "'\(url)' is not an http:// URL (for example http://localhost:4318)")
        }
        let rest = url.dropFirst("http://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var path = String(rest.dropFirst(authority.count).prefix { $0 != "#" })
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        guard !authority.contains("@") else {
            throw Invalid(message: "'\(url)': user names in the URL are not supported; use OTEL_EXPORTER_OTLP_HEADERS")
        }
        var host = Substring(authority)
        var portText: Substring?
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else {
                throw Invalid(message: "'\(url)': unclosed [ in the host")
            }
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else if !after.isEmpty {
                throw Invalid(message: "'\(url)': text after the IPv6 address")
            }
            host = host[host.index(after: host.startIndex)..<close]
        } else if let colon = host.lastIndex(of: ":") {
            portText = host[host.index(after: colon)...]
            host = host[..<colon]
        }
        guard !host.isEmpty else { throw Invalid(message: "'\(url)' has no host") }
        var port: UInt16 = 80
        if let portText {
            guard let number = UInt16(portText), number > 0 else {
                throw Invalid(message: "'\(url)': the port must be a number from 1 to 65535")
            }
            port = number
        }
        self.host = String(host)
        self.port = port
        self.path = path
    }

    /// The OTLP/HTTP traces URL under a base URL, as OpenTelemetry specifies for
    /// `OTEL_EXPORTER_OTLP_ENDPOINT`: `v1/traces` appended to the base path.
    func appendingTracesPath() -> HTTPEndpoint {
        var copy = self
        let base = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        copy.path = String(base[0]) + (base[0].hasSuffix("/") ? "" : "/") + "v1/traces"
        if base.count > 1 { copy.path += "?" + base[1] }
        return copy
    }

    /// The `Host` header value.
    var authority: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? name : "\(name):\(port)"
    }

    var description: String { "http://\(authority)\(path)" }
}
