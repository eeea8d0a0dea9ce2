import ActivityPOSIX
import ActivityWire
import CHTTPSPost

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One HTTP/1.1 POST on a socket of its own, every step bounded by a deadline: name lookup,
/// connect, send, and reading the status line. Only the status matters; the connection is
/// closed after it (`Connection: close`).
///
/// `https` goes through libcurl instead, loaded at run time (CHTTPSPost): TLS is not written
/// here, and a build or an install without libcurl works for everything else.
enum HTTPPoster {
    enum Outcome: Equatable {
        /// A 2xx answer.
        case delivered
        /// Another answer; `retryable` for 429, 502, 503 and 504, as OTLP/HTTP specifies.
        case rejected(status: Int, retryable: Bool)
        /// No answer: the name did not resolve, the connection was refused, the time ran out.
        case failed(String)

        var isRetryable: Bool {
            switch self {
            case .delivered: false
            case .rejected(_, let retryable): retryable
            case .failed: true
            }
        }
    }

    /// Files for `https`: the CA certificates to trust, a client certificate and its key.
    struct TLSFiles: Sendable {
        var certificateAuthority: String?
        var clientCertificate: String?
        var clientKey: String?
    }

    static func post(
        _ body: [UInt8], to endpoint: HTTPEndpoint, contentType: String, headers: [String], timeout: Double,
        tls: TLSFiles = TLSFiles()
    ) -> Outcome {
        if endpoint.isSecure {
            return postSecurely(
                body, to: endpoint, contentType: contentType, headers: headers, timeout: timeout, tls: tls)
        }
        let deadline = SystemClock.monotonicSeconds() + timeout
        let fd: Int32
        switch connect(endpoint, deadline: deadline) {
        case .success(let connected): fd = connected
        case .failure(let reason): return .failed(reason.message)
        }
        defer { close(fd) }
        var request = "POST \(endpoint.path) HTTP/1.1\r\nHost: \(endpoint.authority)\r\n"
        request += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
        request += "User-Agent: activity/\(Commands.version)\r\nConnection: close\r\n"
        for header in headers { request += header + "\r\n" }
        request += "\r\n"
        guard send(Array(request.utf8) + body, on: fd, deadline: deadline) else {
            return .failed("sending timed out or the connection was closed")
        }
        guard let status = readStatus(fd, deadline: deadline) else {
            return .failed("no answer within \(Int(timeout * 1000)) ms")
        }
        if (200..<300).contains(status) { return .delivered }
        return .rejected(status: status, retryable: [429, 502, 503, 504].contains(status))
    }

    private struct Failure: Error {
        var message: String
    }

    private static func connect(_ endpoint: HTTPEndpoint, deadline: Double) -> Result<Int32, Failure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SystemCall.streamType
        var list: UnsafeMutablePointer<addrinfo>?
        let lookup = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
        guard lookup == 0, let first = list else {
            return .failure(
                Failure(message: "cannot resolve \(endpoint.host): \(String(cString: gai_strerror(lookup)))"))
        }
        defer { freeaddrinfo(list) }
        var lastError = ECONNREFUSED
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            let fd = SystemCall.openSocket(
                domain: address.pointee.ai_family, type: address.pointee.ai_socktype,
                protocol: address.pointee.ai_protocol, nonBlocking: true)
            guard fd >= 0 else {
                lastError = errno
                continue
            }
            if SystemCall.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return .success(fd) }
            lastError = errno
            if lastError == EINPROGRESS, wait(fd, for: Int16(POLLOUT), deadline: deadline) {
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                if error == 0 { return .success(fd) }
                lastError = error
            } else if lastError == EINPROGRESS {
                lastError = ETIMEDOUT
            }
            close(fd)
        }
        return .failure(Failure(message: SystemError.reason(lastError)))
    }

    private static func send(_ bytes: [UInt8], on fd: Int32, deadline: Double) -> Bool {
        bytes.withUnsafeBytes { raw in
            SystemCall.writeAll(fd, raw, socket: true) { _, _ in wait(fd, for: Int16(POLLOUT), deadline: deadline) }
        } == 0
    }

    /// The status code of the answer's first line.
    private static func readStatus(_ fd: Int32, deadline: Double) -> Int? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        reading: while !received.contains(UInt8(ascii: "\n")) && received.count < 8192 {
            switch try? SystemCall.read(fd, into: &buffer) {
            case .bytes(let count): received += buffer[..<count]
            case .wouldBlock: guard wait(fd, for: Int16(POLLIN), deadline: deadline) else { return nil }
            case .endOfFile, nil: break reading
            }
        }
        let line = String(
            decoding: received.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/") else { return nil }
        return Int(parts[1])
    }

    /// Waits until `fd` is ready for `events`, or the deadline passes.
    private static func wait(_ fd: Int32, for events: Int16, deadline: Double) -> Bool {
        while true {
            let left = deadline - SystemClock.monotonicSeconds()
            guard left > 0 else { return false }
            var poller = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&poller, 1, Int32(min(left * 1000 + 1, 60_000)))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { return false }
        }
    }

    /// Why `https` cannot be used here, or `nil` when it can.
    static func httpsUnavailable() -> String? {
        var message = [CChar](repeating: 0, count: 256)
        return https_post_available(&message, message.count) != 0 ? nil : text(of: message)
    }

    private static func postSecurely(
        _ body: [UInt8], to endpoint: HTTPEndpoint, contentType: String, headers: [String], timeout: Double,
        tls: TLSFiles
    ) -> Outcome {
        let lines = ["Content-Type: \(contentType)", "User-Agent: activity/\(Commands.version)"] + headers
        var cLines = lines.map { strdup($0) }
        defer { cLines.forEach { free($0) } }
        var status = 0
        var message = [CChar](repeating: 0, count: 512)
        let result = cLines.withUnsafeMutableBufferPointer { pointers in
            pointers.withMemoryRebound(to: UnsafePointer<CChar>?.self) { headerList in
                body.withUnsafeBytes { bytes in
                    https_post(
                        endpoint.description, headerList.baseAddress, headerList.count, bytes.baseAddress,
                        bytes.count, max(1, Int(saturating: timeout * 1000)), tls.certificateAuthority,
                        tls.clientCertificate,
                        tls.clientKey, &status, &message, message.count)
                }
            }
        }
        switch result {
        case HTTPS_POST_ANSWERED:
            if (200..<300).contains(status) { return .delivered }
            return .rejected(status: status, retryable: [429, 502, 503, 504].contains(status))
        default:
            return .failed(text(of: message))
        }
    }

    /// A NUL-terminated message the C side wrote into `buffer`.
    private static func text(of buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
