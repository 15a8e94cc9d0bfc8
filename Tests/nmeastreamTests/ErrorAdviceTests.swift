import NMEAStream
import Testing
@testable import nmeastream
import TestSupport

@Suite("The command's advice on errors", .mayBlock)
struct ErrorAdviceTests {
    @Test("permission denied: the command names both fixes, joining the group and the udev rules")
    func permissionDenied() {
        let message = GPSError.permissionDenied(path: "/dev/ttyACM0", group: "dialout").message
        #expect(message.hasPrefix("/dev/ttyACM0: permission denied; the device belongs to group 'dialout'; "))
        #expect(message.contains("usermod -aG dialout"))
        #expect(message.contains("udev-rules/"))
    }

    @Test("an error with nothing to add is printed as the library says it")
    func factsOnly() {
        let error = GPSError.openFailed(path: "/dev/ttyACM0", errno: .ioError)
        #expect(error.advice == nil)
        #expect(error.message == error.description)
    }
}
