import NMEA

extension NMEAReader {
    /// What a reader says, in input order, on its queue: the one type behind every
    /// ``NMEAReaderDelegate`` call. What it borrows (a sentence, the bytes read) is valid
    /// during the call only.
    public enum Event {
        /// One read of the source returned these bytes, unchanged; what is decoded from them
        /// follows.
        case read(UnsafeRawBufferPointer)
        /// The decoder's sentences, epochs and rejects.
        case decoded(NMEADecoder.Event)
        /// ``GPSSource/automatic`` or ``GPSSource/watch`` chose this port (before opening it).
        /// (Held indirectly, as is a failure: rare events, whose size every event would
        /// otherwise be built and copied at.)
        indirect case choseDevice(SerialPortInfo)
        /// With ``GPSSource/watch``: the device at this path went away.
        case lostDevice(String)
        /// A network source connected to its peer (its URL), or for UDP bound its socket: at the
        /// start, and again after each interruption.
        case connected(String)
        /// A network source lost its peer, or could not reach it; it tries again.
        indirect case lostConnection(NetworkInterruption)
        /// ``SerialSpeed/automatic`` found the receiver's speed, in bits per second.
        case foundSpeed(Int)
        /// The line was quiet before the read that comes next: the receiver paused between two
        /// bursts, and the decoder was told (``NMEADecoder/noteQuiet(_:)``). Only a device's
        /// reads are timed.
        case quiet
        /// Everything decoded from one read has been delivered.
        case finishedChunk
        /// The source failed. Nothing follows.
        indirect case failed(GPSError)
        /// The source ended. Nothing follows.
        case finished
    }
}

extension NMEAReaderDelegate {
    /// Calls the method of `event`: an epoch becomes a call for the epoch, one per satellite
    /// view, then one for its fix.
    func reader(_ reader: NMEAReader, didSend event: NMEAReader.Event) {
        switch event {
        case .read(let bytes): self.reader(reader, didRead: bytes)
        case .decoded(.sentence(let sentence)): self.reader(reader, didReceive: sentence)
        case .decoded(.ubx(let frame)): self.reader(reader, didReceive: frame)
        case .decoded(.epoch(let epoch)):
            self.reader(reader, didComplete: epoch)
            // Each view and the fix borrowed where they are, not copied out for the call.
            let views = epoch.views
            for index in views.indices { self.reader(reader, didUpdate: views[index]) }
            epoch.withFix { self.reader(reader, didUpdate: $0) }
        case .decoded(.rejected(let reject)): self.reader(reader, didReject: reject)
        case .choseDevice(let port): self.reader(reader, didChoose: port)
        case .lostDevice(let path): self.reader(reader, didLoseDevice: path)
        case .connected(let endpoint): self.reader(reader, didConnect: endpoint)
        case .lostConnection(let interruption): self.reader(reader, didLoseConnection: interruption)
        case .foundSpeed(let speed): self.reader(reader, didFindSpeed: speed)
        case .quiet: readerDidSeeQuietLine(reader)
        case .finishedChunk: readerDidFinishChunk(reader)
        case .failed(let error): self.reader(reader, didFailWith: error)
        case .finished: readerDidFinish(reader)
        }
    }
}
