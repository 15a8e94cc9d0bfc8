import ArgumentParser
import NMEAStream

/// `--speed`: a number of bits per second, or `auto`.
struct SpeedArgument: ExpressibleByArgument {
    var speed: SerialSpeed

    init(speed: SerialSpeed) { self.speed = speed }

    init?(argument: String) {
        if argument == "auto" || argument == "automatic" {
            speed = .automatic
        } else if let value = Int(argument), SerialSpeed.supported.contains(value) {
            speed = .bitsPerSecond(value)
        } else {
            return nil
        }
    }

    var defaultValueDescription: String { speed.description }
}
