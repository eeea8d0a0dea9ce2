import Testing

@testable import ActivityWire

@Suite("Id bytes are found eight at a time")
struct IDBytesTests {
    @Test("the run of id bytes ends where a byte by byte reading ends it, for every byte value")
    func eightAtATime() {
        var numbers = SeededNumbers(seed: 0xD1B5_4A32_D192_ED03)
        func next(_ bound: Int) -> Int { numbers.next(bound) }
        // Mostly id bytes, so that runs are long, and any byte at all.
        let idBytes = Array("abcxyzAMZ0189.:/@+-_".utf8)
        var longest = 0
        for _ in 0..<50_000 {
            let bytes = (0..<next(40)).map { _ in
                next(4) == 0 ? UInt8(truncatingIfNeeded: next(256)) : idBytes[next(idBytes.count)]
            }
            let start = bytes.isEmpty ? 0 : next(bytes.count)
            let end = bytes.withUnsafeBufferPointer { ActivityID.endOfIDBytes(in: $0, from: start) }
            let expected = bytes[start...].firstIndex { !ActivityID.isIDByte($0) } ?? bytes.count
            #expect(end == expected, "\(bytes) from \(start)")
            longest = max(longest, end - start)
        }
        #expect(longest > 16)
        // Each byte value alone at each place of two words, with id bytes around it.
        for value in 0...255 {
            for place in 0..<16 {
                var bytes = [UInt8](repeating: 0x61, count: 20)
                bytes[place] = UInt8(value)
                let end = bytes.withUnsafeBufferPointer { ActivityID.endOfIDBytes(in: $0, from: 0) }
                #expect(end == (ActivityID.isIDByte(UInt8(value)) ? 20 : place), "byte \(value) at \(place)")
            }
        }
    }
}
