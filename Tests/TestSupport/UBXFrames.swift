/// A u-blox UBX frame of `payload`: sync bytes, class, id, length, payload and Fletcher
/// checksum, for tests that feed UBX.
public func ubx(_ messageClass: UInt8, _ messageID: UInt8, _ payload: [UInt8]) -> [UInt8] {
    let body = [messageClass, messageID, UInt8(payload.count & 0xFF), UInt8(payload.count >> 8)] + payload
    var a: UInt8 = 0
    var b: UInt8 = 0
    for byte in body {
        a &+= byte
        b &+= a
    }
    return [0xB5, 0x62] + body + [a, b]
}
