import Testing
import TestSupport
@testable import nmeastream

@Suite("Counts in messages", .mayBlock)
struct CountedTests {
    @Test("one is singular, every other count plural: '1 repeat dropped', '0 samples', '2 fixes'")
    func plurals() {
        #expect(counted(1, "repeat") == "1 repeat")
        #expect(counted(0, "sample") == "0 samples")
        #expect(counted(2, "malformed message") == "2 malformed messages")
        #expect(counted(1, "fix", plural: "fixes") == "1 fix")
        #expect(counted(3, "fix", plural: "fixes") == "3 fixes")
    }
}
