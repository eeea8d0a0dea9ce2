import ActivityRendering
import ActivityWire

/// Reads a recorded stream as `activity render` does and drives `renderers` with it.
func drive(
    _ bytes: [UInt8], into renderers: [any ActivityRenderer], store: inout ActivityStore, finishAt time: Double? = nil
) throws {
    let renderer = MultiplexRenderer(renderers)
    var reader = EventStreamReader(source: BytesSource(bytes, chunkSize: 97))
    var local = store
    try reader.forEach { item in
        guard item.isLineStart else { return }
        switch item.decoded {
        case .event(let event):
            var updates: [ActivityUpdate] = []
            let problems = local.apply(event, line: item.line) { updates.append($0) }
            for update in updates { renderer.render(update, in: local) }
            for problem in problems { renderer.report(problem, in: local) }
        case .text:
            renderer.passthrough(Array(item.bytes) + (item.endsWithNewline ? [0x0A] : []), to: .stdout, in: local)
        case .invalid(let problem), .ignored(let problem?):
            local.count(problem)
            renderer.report(problem, in: local)
        case .ignored(nil), .blank:
            break
        }
    }
    let end = time ?? (local.summary.lastTime ?? 0) + 0.5
    var updates: [ActivityUpdate] = []
    local.finish(at: end) { updates.append($0) }
    for update in updates { renderer.render(update, in: local) }
    renderer.finish(local, now: end)
    store = local
}

func fixture(_ name: String) -> [UInt8] {
    let file = #filePath
    let tests = "/" + file.split(separator: "/").dropLast(2).joined(separator: "/")
    return Array((readFile(tests + "/Fixtures/" + name) ?? "").utf8)
}
