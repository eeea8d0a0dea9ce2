import ActivityWire
import Foundation
import InMemoryActivity
import Testing

@testable import ActivityReporting

@Suite("Task-local nesting")
struct NestingTests {
    @Test("Children nest under the current activity, also across async let and task groups")
    func structuredConcurrency() async throws {
        await withInMemoryReporter { sink in
            let outerID = await withActivity("Build") { build -> ActivityID in
                async let first: ActivityID = withActivity("Compile A") { $0.id }
                async let second: ActivityID = withActivity("Compile B") { $0.id }
                _ = await (first, second)
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<4 {
                        group.addTask {
                            withActivity("Link \(index)") { link in
                                #expect(Activity.current === link)
                                withActivity("Strip") { strip in
                                    #expect(strip.parentID == link.id)
                                }
                            }
                        }
                    }
                }
                await Task {
                    withActivity("Inherited by Task { }") { _ in }
                }.value
                return build.id
            }
            let begins = sink.begins
            #expect(begins.count == 12)
            let byTitle = Dictionary(grouping: begins, by: \.title)
            for title in ["Compile A", "Compile B", "Link 0", "Link 3", "Inherited by Task { }"] {
                #expect(byTitle[title]?.first?.parent == outerID, "\(title)")
            }
            #expect(byTitle["Strip"]?.count == 4)
            #expect(byTitle["Strip"]?.allSatisfy { $0.parent != outerID && $0.parent != nil } == true)
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("Task.detached does not inherit the current activity")
    func detached() async throws {
        await withInMemoryReporter { sink in
            let reporter = ActivitySystem.reporter
            await withActivity("Outer") { _ in
                await Task.detached {
                    #expect(Activity.current == nil)
                    ActivitySystem.$taskReporter.withValue(reporter) {
                        withActivity("Detached") { activity in #expect(activity.parentID == nil) }
                    }
                }.value
            }
            #expect(sink.begins.map(\.parent) == [nil, nil])
        }
    }

    @Test("Top-level activities nest under ACTIVITY_PARENT")
    func environmentParent() async throws {
        let parent = ActivityID("3f9c2a71d04be815.1")!
        await withInMemoryReporter(parent: parent) { sink in
            withActivity("Child process work") { activity in
                #expect(activity.parentID == parent)
                withActivity("Grandchild") { inner in #expect(inner.parentID == activity.id) }
            }
            #expect(sink.begins.first?.parent == parent)
            #expect(problems(in: sink.events).map(\.code) == [.unknownParent])
        }
    }

    @Test("A manual activity nests under the current one, and others nest under it when passed as parent")
    func manual() async throws {
        await withInMemoryReporter { sink in
            let (outer, manual) = withActivity("Session") { session in
                let upload = Activity.begin("Upload", total: 3, unit: "bytes")
                #expect(upload.parentID == session.id)
                #expect(Activity.current === session)
                let part = Activity.begin("Part 1", parent: upload)
                #expect(part.parentID == upload.id)
                part.end()
                upload.end()
                return (session.id, upload.id)
            }
            #expect(sink.begins.map(\.parent) == [nil, outer, manual])
            #expect(problems(in: sink.events) == [])
        }
    }

    @Test("Ids are unique and well formed")
    func ids() async throws {
        await withInMemoryReporter { _ in
            var seen = Set<ActivityID>()
            for _ in 0..<1000 {
                let activity = Activity.begin("Id", parent: nil)
                #expect(ActivityID.isValid(activity.id.rawValue.utf8))
                seen.insert(activity.id)
                activity.end()
            }
            #expect(seen.count == 1000)
            let prefix = seen.first!.rawValue.split(separator: ".").first!
            #expect(prefix.count == 16)
        }
    }
}

@Suite("Isolation")
struct IsolationTests {
    @MainActor final class Model {
        var titles: [String] = []
    }

    @Test("withActivity runs its body on the caller's actor, with non-Sendable state")
    @MainActor
    func mainActor() async throws {
        let model = Model()
        let sink = InMemoryActivitySink()
        let count = ActivitySystem.$taskReporter.withValue(Reporter(sink: sink, parent: nil)) {
            withActivity("Refreshing") { activity in
                MainActor.assertIsolated()
                model.titles.append(activity.title)
                return model.titles.count
            }
        }
        #expect(count == 1)
        #expect(sink.ends.count == 1)
        #expect(model.titles == ["Refreshing"])
    }
}
