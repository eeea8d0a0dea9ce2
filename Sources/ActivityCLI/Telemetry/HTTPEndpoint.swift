/// Where to post: an `http://` or `https://` URL taken apart.
struct HTTPEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// `https`: posted through libcurl (``HTTPPoster``), with the certificate checked.
    var isSecure = false
    var host: String
    var port: UInt16
    /// The path with any query: `/v1/traces`.
    var path: String

    /// Why a URL cannot be used.
    struct Invalid: Error, Equatable {
        var message: String
    }

    init(host: String, port: UInt16, path: String, isSecure: Bool = false) {
        self.host = host
        self.port = port
        self.path = path
        self.isSecure = isSecure
    }

    init(_ url: String) throws(Invalid) {
        let lowered = url.lowercased()
        let scheme: String
        if lowered.hasPrefix("https://") {
            scheme = "https://"
            isSecure = true
        } else if lowered.hasPrefix("http://") {
            scheme = "http://"
        } else {
            throw Invalid(message: "'\(url)' is not an http:// or https:// URL (for example http://localhost:4318)")
        }
        let rest = url.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        var path = String(rest.dropFirst(authority.count).prefix { $0 != "#" })
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        guard !authority.contains("@") else {
            throw Invalid(message: "'\(url)': user names in the URL are not supported; use OTEL_EXPORTER_OTLP_HEADERS")
        }
        guard !path.contains(where: { $0 == " " || $0.isNewline }) else {
            throw Invalid(message: "'\(url)': spaces and line breaks must be percent-encoded in the path")
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
        var port: UInt16 = isSecure ? 443 : 80
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
        return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
    }

    var description: String { (isSecure ? "https://" : "http://") + authority + path }
}
