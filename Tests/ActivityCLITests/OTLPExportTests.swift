import Foundation
import Testing

@testable import ActivityCLI

@Suite("activity run --otlp-endpoint: live export to a local OTLP/HTTP server")
struct OTLPExportTests {
    static let script = """
        id=$(activity emit begin Compile --total 2 --unit files)
        activity emit log --id "$id" --level error "main.c:3: error"
        activity emit end "$id" --status failure --error "exit status 1"
        activity emit begin Lint >/dev/null
        """

    /// A server of `otlp_server.py` in `mode`; returns its pid and port.
    static func server(_ mode: String, in folder: TemporaryFolder) throws -> (pid: pid_t, port: String) {
        let portFile = folder.url.appendingPathComponent("port").path
        let bodies = folder.url.appendingPathComponent("bodies")
        try FileManager.default.createDirectory(at: bodies, withIntermediateDirectories: true)
        let pid = try Python.start("otlp_server.py", [mode, portFile, bodies.path], in: folder)
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
            ["render", "--mode", "plain", Repository.path("Tests/ActivityCLITests/Fixtures/build.jsonl")],
            environment: ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:\(port)/custom/traces"])
        #expect(result.status == 0)
        let bodies = try Self.bodies(in: folder)
        try #require(!bodies.isEmpty)
        let headers = try String(
            contentsOfFile: bodies[0].replacingOccurrences(of: ".json", with: ".headers"), encoding: .utf8)
        #expect(headers.hasPrefix("/custom/traces\n"))
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

    @Test("endpoints: the option and OTEL_EXPORTER_OTLP_ENDPOINT get /v1/traces, https is refused")
    func settings() throws {
        func resolve(_ option: String?, _ environment: [String: String]) throws -> OTLPSettings? {
            try OTLPSettings.resolve(option: option, environment: { environment[$0] })
        }
        #expect(try resolve(nil, [:]) == nil)
        #expect(try resolve("http://collector:4318", [:])?.endpoint.description == "http://collector:4318/v1/traces")
        #expect(
            try resolve(nil, ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318/base/"])?.endpoint.path == "/base/v1/traces"
        )
        #expect(
            try resolve(
                nil, ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://c/x", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://d"])?
                .endpoint == HTTPEndpoint(host: "c", port: 80, path: "/x"))
        #expect(try resolve(nil, ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://c", "OTEL_TRACES_EXPORTER": "none"]) == nil)
        #expect(try resolve("http://[::1]:4318", [:])?.endpoint.authority == "[::1]:4318")
        let configured = try resolve(
            "http://c",
            [
                "OTEL_EXPORTER_OTLP_HEADERS": "x-team=a%20b, api-key = k", "OTEL_EXPORTER_OTLP_TIMEOUT": "2500",
                "OTEL_RESOURCE_ATTRIBUTES": "service.name=from-resource,host.name=ci-3",
            ])
        #expect(configured?.headers == ["x-team: a b", "api-key: k"])
        #expect(configured?.timeout == 2.5)
        #expect(configured?.serviceName == "from-resource")
        #expect(configured?.resourceAttributes["host.name"] == "ci-3")
        #expect(throws: HTTPEndpoint.Invalid.self) { try resolve("https://collector:4318", [:]) }
        let https = try CommandRunner.activity(["render", "--otlp-endpoint", "https://c:4318", "/dev/null"])
        #expect(https.status == 64)
        #expect(https.standardError.contains("https is not supported"))
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

extension OTLPSettings: Equatable {
    public static func == (lhs: OTLPSettings, rhs: OTLPSettings) -> Bool { lhs.endpoint == rhs.endpoint }
}
