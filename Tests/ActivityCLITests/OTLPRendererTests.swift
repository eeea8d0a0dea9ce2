import ActivityRendering
import ActivityWire
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ActivityCLI

@Suite("Live OTLP export as a renderer of the render session")
struct OTLPRendererTests {
    static let settings = OTLPSettings(endpoint: HTTPEndpoint(host: "127.0.0.1", port: 4318, path: "/v1/traces"))

    @Test("it exports what the session accepted, as another renderer saw it, and not another reporter's event")
    func acceptedEvents() throws {
        let collector = Collector()
        let export = OTLPRenderer(settings: Self.settings, post: collector.post)
        let seen = RecordingRenderer()
        let display = SessionDisplay(session: RenderSession(renderers: [seen, export]), export: export)
        let session = display.session
        let build = try #require(ActivityID("build")), lint = try #require(ActivityID("lint"))
        #expect(session.handle(.begin(.init(id: build, title: "Build")), line: 1, sender: 5, owner: .connection(5)))
        // Another reporter's end of it: the session skips it, so the export never sees it.
        let foreign = ActivityEvent.end(.init(id: build, status: .failure, error: "not mine"))
        #expect(!session.handle(foreign, line: 1, sender: 6, owner: nil))
        #expect(session.handle(.end(.init(id: build)), line: 2, sender: 5, owner: nil))
        session.handle(.begin(.init(id: lint, title: "Lint", parent: build)))
        // Lint is still open: the session ends it as abandoned, and that end is exported.
        display.finish()
        #expect(seen.codes.contains(.notOwner))
        var ends: [String: (status: String, time: Double)] = [:]
        for case .end(let end) in seen.events { ends[end.id.rawValue] = (end.status.rawValue, end.timestamp ?? 0) }
        let spans = try collector.spans()
        #expect(ends.keys.sorted() == ["build", "lint"])
        #expect(spans.keys.sorted() == ends.keys.sorted())
        #expect(spans["build"]?.status == "success" && spans["lint"]?.status == "abandoned", "\(spans)")
        // The times the session stamped, to the microsecond.
        for (id, end) in ends {
            #expect(abs((spans[id]?.time ?? 0) - end.time) < 1e-5, "\(id): \(spans[id].map(\.time) ?? 0) \(end.time)")
        }
    }

    @Test("a warning while the session runs goes through it, as text for standard error above the live region")
    func warningThroughSession() throws {
        var settings = Self.settings
        settings.scheduleDelay = 0.01
        let export = OTLPRenderer(settings: settings, post: { _ in .rejected(status: 400, retryable: false) })
        let errors = StandardErrorRecorder()
        let display = SessionDisplay(session: RenderSession(renderers: [errors, export]), export: export)
        let id = try #require(ActivityID("step"))
        display.session.handle(.begin(.init(id: id, title: "Step")))
        display.session.handle(.end(.init(id: id)))
        #expect(Poll.until { errors.text.contains("activity: cannot send spans to the OpenTelemetry collector") })
        display.finish()
        // Said once the session has finished: on the process's standard error, not through it.
        #expect(!errors.text.contains("spans were not delivered"), "\(errors.text)")
    }
}

/// A collector in the test: keeps each request body and answers that it was delivered.
private final class Collector: Sendable {
    private let bodies = Mutex<[[UInt8]]>([])

    var post: OTLPLiveExporter.Post {
        { body in
            self.bodies.withLock { $0.append(body) }
            return .delivered
        }
    }

    /// Each span's `activity.status` and end time (Unix seconds), by `activity.id`.
    func spans() throws -> [String: (status: String, time: Double)] {
        var spans: [String: (status: String, time: Double)] = [:]
        for body in bodies.withLock({ $0 }) {
            let request = try JSONSerialization.jsonObject(with: Data(body))
            for resource in (request as? [String: Any])?["resourceSpans"] as? [[String: Any]] ?? [] {
                for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                    for span in scope["spans"] as? [[String: Any]] ?? [] {
                        var attributes: [String: String] = [:]
                        for attribute in span["attributes"] as? [[String: Any]] ?? [] {
                            let value = (attribute["value"] as? [String: Any])?["stringValue"] as? String
                            if let key = attribute["key"] as? String, let value { attributes[key] = value }
                        }
                        let end = Double(span["endTimeUnixNano"] as? String ?? "") ?? 0
                        spans[attributes["activity.id"] ?? ""] = (attributes["activity.status"] ?? "", end / 1e9)
                    }
                }
            }
        }
        return spans
    }
}

/// What a session passes through to standard error.
private final class StandardErrorRecorder: ActivityRenderer, Sendable {
    private let bytes = Mutex<[UInt8]>([])

    var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }

    func render(_ update: ActivityUpdate, in store: ActivityStore) {}

    func passthrough(_ bytes: [UInt8], to stream: StandardStream, in store: ActivityStore) {
        guard stream == .stderr else { return }
        self.bytes.withLock { $0 += bytes }
    }
}
