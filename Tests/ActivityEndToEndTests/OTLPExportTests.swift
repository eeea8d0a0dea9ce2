import Foundation
import TestSupport
import Testing

@Suite("activity run --otlp-endpoint: live export to a local OTLP/HTTP server, over http and https")
struct OTLPExportTests {
    static let script = """
        id=$(activity emit begin Compile --total 2 --unit files)
        activity emit log --id "$id" --level error "main.c:3: error"
        activity emit end "$id" --status failure --error "exit status 1"
        activity emit begin Lint >/dev/null
        """

    /// A server of `otlp_server.py` in `mode`; returns its pid and port.
    /// With a certificate and its key, the server speaks https.
    static func server(
        _ mode: String, in folder: TemporaryFolder, certificate: String? = nil, key: String? = nil
    ) throws -> (pid: pid_t, port: String) {
        let portFile = folder.url.appendingPathComponent("port").path
        let bodies = folder.url.appendingPathComponent("bodies")
        try FileManager.default.createDirectory(at: bodies, withIntermediateDirectories: true)
        let tls = [certificate, key].compactMap { $0 }
        let pid = try Python.start("otlp_server.py", [mode, portFile, bodies.path] + tls, in: folder)
        let port = try #require(Python.waitForFile(portFile), "the test server did not start")
        return (pid, port)
    }

    static func stop(_ pid: pid_t) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    static func bodies(in folder: TemporaryFolder) throws -> [String] {
        let directory = folder.url.appendingPathComponent("bodies")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
            .sorted()
            .map { directory.appendingPathComponent($0).path }
    }

    @Test("every activity arrives as a span, the same as the recording's, with parents, status and logs")
    func delivered() throws {
        let folder = try TemporaryFolder()
        let (pid, port) = try Self.server("record", in: folder)
        defer { Self.stop(pid) }
        let recording = folder.url.appendingPathComponent("run.jsonl").path
        let result = try CommandRunner.activity(
            [
                "run", "--mode", "plain", "--log-file", recording, "--log-format", "jsonl",
                "--otlp-endpoint", "http://127.0.0.1:\(port)", "--", "sh", "-c", Self.script,
            ], environment: ["OTEL_SERVICE_NAME": "ci-fleet"])
        #expect(result.status == 0)
        #expect(!result.standardError.contains("OpenTelemetry"), "\(result.standardError)")
        let bodies = try Self.bodies(in: folder)
        try #require(!bodies.isEmpty)
        let check = try Python.run("check_otlp.py", [recording] + bodies)
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        let all = try bodies.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined()
        #expect(all.contains(#""stringValue":"ci-fleet""#))
        #expect(all.contains(#""name":"Lint""#) && all.contains(#""stringValue":"abandoned""#))
        let headers = try String(
            contentsOfFile: bodies[0].replacingOccurrences(of: ".json", with: ".headers"), encoding: .utf8)
        #expect(headers.hasPrefix("/v1/traces\n"))
        #expect(headers.contains("Content-Type: application/json"))
        // The export of the recording names the same trace and spans as the live export did.
        let exported = try CommandRunner.activity(["export", "--format", "otlp-json", recording])
        let spanID = try #require(all.firstMatch(of: /"spanId":"([0-9a-f]{16})"/)?.1)
        #expect(exported.standardOutput.contains("\"spanId\":\"\(spanID)\""))
    }

    @Test("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is used as it is, for render too")
    func environment() throws {
        let folder = try TemporaryFolder()
        let (pid, port) = try Self.server("record", in: folder)
        defer { Self.stop(pid) }
        let result = try CommandRunner.activity(
            ["render", "--mode", "plain", Repository.path("Tests/ActivityEndToEndTests/Fixtures/build.jsonl")],
            environment: ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:\(port)/custom/traces"])
        #expect(result.status == 0)
        let bodies = try Self.bodies(in: folder)
        try #require(!bodies.isEmpty)
        let headers = try String(
            contentsOfFile: bodies[0].replacingOccurrences(of: ".json", with: ".headers"), encoding: .utf8)
        #expect(headers.hasPrefix("/custom/traces\n"))
    }

    @Test("a header holding CR, LF or another control after percent-decoding is not sent, with a warning")
    func headerInjection() throws {
        let folder = try TemporaryFolder()
        let (pid, port) = try Self.server("record", in: folder)
        defer { Self.stop(pid) }
        let result = try CommandRunner.activity(
            ["render", "--mode", "plain", Repository.path("Tests/ActivityEndToEndTests/Fixtures/build.jsonl")],
            environment: [
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:\(port)/v1/traces",
                "OTEL_EXPORTER_OTLP_HEADERS": "x-a=b%0D%0AX-Injected: evil%0D%0A,x-b=c",
            ])
        #expect(result.status == 0)
        #expect(result.standardError.contains(#"ignoring the header "x-a" in OTEL_EXPORTER_OTLP_HEADERS"#))
        let bodies = try Self.bodies(in: folder)
        try #require(!bodies.isEmpty)
        let headers = try String(
            contentsOfFile: bodies[0].replacingOccurrences(of: ".json", with: ".headers"), encoding: .utf8)
        #expect(!headers.lowercased().contains("x-injected"), "\(headers)")
        #expect(headers.lowercased().contains("x-b: c"), "\(headers)")
    }

    @Test("a collector that is down: one warning, the command's own status, nothing blocks")
    func down() throws {
        let port = try Self.closedPort()
        let result = try CommandRunner.activity(
            [
                "run", "--mode", "plain", "--otlp-endpoint", "http://127.0.0.1:\(port)", "--", "sh", "-c",
                Self.script + "; exit 3",
            ])
        #expect(result.status == 3)
        let warnings =
            result.standardError.components(separatedBy: "cannot send spans to the OpenTelemetry collector").count - 1
        #expect(warnings == 1, "\(result.standardError)")
        #expect(result.standardError.contains("http://127.0.0.1:\(port)/v1/traces"))
        #expect(result.standardError.contains("spans were not delivered"))
    }

    @Test("a collector that accepts and never answers: the command ends after a bounded wait")
    func slow() throws {
        let folder = try TemporaryFolder()
        let (pid, port) = try Self.server("slow", in: folder)
        defer { Self.stop(pid) }
        let result = try CommandRunner.activity(
            ["run", "--mode", "plain", "--otlp-endpoint", "http://127.0.0.1:\(port)", "--", "sh", "-c", Self.script],
            environment: ["OTEL_EXPORTER_OTLP_TIMEOUT": "300"], timeout: 60)
        #expect(result.status == 0)
        #expect(result.standardError.contains("spans were not delivered"), "\(result.standardError)")
    }

    @Test("a certificate file that cannot be read is a usage error naming the variable and the file")
    func missingCertificate() throws {
        let missing = try CommandRunner.activity(
            ["render", "--otlp-endpoint", "https://c:4318", "/dev/null"],
            environment: ["OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE": "/nonexistent/ca.pem"])
        #expect(missing.status == 64)
        #expect(
            missing.standardError
                == "activity render: OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE '/nonexistent/ca.pem': No such file or directory\n"
        )
    }

    @Test("https: spans arrive at a collector whose certificate OTEL_EXPORTER_OTLP_CERTIFICATE trusts, not otherwise")
    func https() throws {
        let folder = try TemporaryFolder()
        let certificate = folder.url.appendingPathComponent("cert.pem").path
        let key = folder.url.appendingPathComponent("key.pem").path
        let made = try CommandRunner.run(
            "/usr/bin/env",
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
            ])
        try #require(made.status == 0, "\(made.standardError)")
        let (pid, port) = try Self.server("record", in: folder, certificate: certificate, key: key)
        defer { Self.stop(pid) }
        let recording = folder.url.appendingPathComponent("run.jsonl").path
        let trusted = try CommandRunner.activity(
            [
                "run", "--mode", "plain", "--log-file", recording, "--log-format", "jsonl",
                "--otlp-endpoint", "https://127.0.0.1:\(port)", "--", "sh", "-c", Self.script,
            ], environment: ["OTEL_EXPORTER_OTLP_CERTIFICATE": certificate])
        #expect(trusted.status == 0)
        #expect(!trusted.standardError.contains("OpenTelemetry"), "\(trusted.standardError)")
        let bodies = try Self.bodies(in: folder)
        try #require(!bodies.isEmpty)
        let check = try Python.run("check_otlp.py", [recording] + bodies)
        #expect(check.status == 0, "\(check.standardOutput)\(check.standardError)")
        // The system's trust store does not know this certificate: the command goes on, one warning.
        let untrusted = try CommandRunner.activity(
            ["run", "--mode", "plain", "--otlp-endpoint", "https://127.0.0.1:\(port)", "--", "sh", "-c", "exit 4"])
        #expect(untrusted.status == 4)
        #expect(
            untrusted.standardError.contains(
                "cannot send spans to the OpenTelemetry collector at https://127.0.0.1:\(port)/v1/traces: "
                    + "SSL certificate problem"), "\(untrusted.standardError)")
        #expect(try Self.bodies(in: folder).count == bodies.count)
    }

    /// A port on 127.0.0.1 with nobody listening: bound, then closed.
    static func closedPort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                guard bind(fd, $0, length) == 0, getsockname(fd, $0, &length) == 0 else {
                    throw POSIXError(.EADDRINUSE)
                }
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }
}
