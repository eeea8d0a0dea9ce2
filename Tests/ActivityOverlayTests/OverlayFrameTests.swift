import ActivityOverlay
@_spi(Consumers) import ActivityWire
import Testing

/// `activity run`'s own activity is a frame: what the command reports is what the overlay shows.
@Suite("Overlay model: a frame around the command's work")
struct OverlayFrameTests {
    @Test("the command's top-level activity is the label and the bar, not the wrapper's command line")
    func label() {
        var model = OverlayModel(configuration: .vectors)
        _ = model.reduce(E.begin("run", "bash login.sh", blocking: .block, frame: true), at: 0)
        _ = model.reduce(E.begin("sign", "Signing in", total: 4, parent: "run"), at: 10)
        _ = model.reduce(E.progress("sign", 1), at: 20)
        _ = model.reduce(.tick, at: 600)
        #expect(model.state.isVisible)
        #expect(model.state.title == "Signing in")
        #expect(model.state.content == .progress(0.25))
        // Blocking stays as the frame asked (the command's keys are the overlay's while it runs).
        #expect(model.state.blocksInput)
        _ = model.reduce(E.begin("nested", "Contacting the server", parent: "sign"), at: 700)
        #expect(model.state.title == "Signing in", "a nested step changed the label")
        _ = model.reduce(E.end("nested"), at: 800)
        _ = model.reduce(E.end("sign"), at: 900)
        #expect(model.state.title == "bash login.sh", "with nothing inside it, the frame shows")
    }

    @Test("a frame that ends with its work open ends that work as abandoned: a failure mark, then idle")
    func frameEndsWithWorkOpen() {
        var model = OverlayModel(configuration: .vectors)
        _ = model.reduce(E.begin("run", "bash login.sh", frame: true), at: 0)
        _ = model.reduce(E.begin("sign", "Signing in", parent: "run"), at: 10)
        _ = model.reduce(.tick, at: 600)
        #expect(model.state.title == "Signing in")
        // The command was killed: its reporter never ended "sign".
        let effects = model.reduce(E.end("run", .failure), at: 700)
        #expect(model.state.phase == .flashing)
        #expect(model.state.content == .failure)
        #expect(effects.contains(.haptic(.failure)))
        #expect(model.rules.openCount == 0)
        _ = model.reduce(.tick, at: 10_000)
        #expect(model.state.phase == .idle)
        // A late end of the abandoned work changes nothing.
        _ = model.reduce(E.end("sign"), at: 10_100)
        #expect(model.state.phase == .idle)
    }

    @Test("without a frame, a child stays nested: the label is its parent's")
    func withoutFrame() {
        var model = OverlayModel(configuration: .vectors)
        _ = model.reduce(E.begin("outer", "Outer"), at: 0)
        _ = model.reduce(E.begin("inner", "Inner", parent: "outer"), at: 10)
        _ = model.reduce(.tick, at: 600)
        #expect(model.state.title == "Outer")
    }
}
