import NMEAStream
import Testing
import TestSupport

/// The README's library example, kept here so that it keeps compiling and doing what it says.
@Suite("README example", .mayBlock)
struct ReadmeExampleTests {
    @Test("the library example decodes its sentence into one fix")
    func libraryExample() {
        let decoder = NMEADecoder()
        let log = Array("$GPGGA,092750.000,5321.6802,N,00630.3372,W,1,08,1.03,61.7,M,55.2,M,,*46\r\n".utf8)
        var fixes: [Fix] = []
        var rejects: [RejectedInput] = []
        let handle: (NMEADecoder.Event) -> Void = { event in
            switch event {
            case .epoch(let epoch):
                for view in epoch.views { _ = view }
                if let fix = epoch.fix { fixes.append(fix) }
            case .sentence(let raw):
                if case .rmc(let rmc)? = NMEASentence.decode(raw) { print(rmc.navigationalStatus as Any) }
            case .ubx(let frame):
                if case .navPVT(let pvt)? = UBXMessage.decode(frame)?.message { print(pvt.fixType as Any) }
            case .rejected(let reject): rejects.append(reject)
            }
        }
        log.withUnsafeBytes { decoder.feed($0, handle) }
        decoder.finish(handle)
        #expect(rejects.isEmpty)
        #expect(fixes.count == 1)
        #expect(fixes.first?.timeOfDay?.description == "09:27:50.000")
        #expect(fixes.first?.mode == .threeD)
        #expect(decoder.statistics.sentences == ["GPGGA": 1])
    }
}
