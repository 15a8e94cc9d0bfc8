"""The receiver of the resident-memory benchmark (serve-memory.py) and of the layout profile
(packaging/layout/profile.py), which must see the same `serve`: a pseudo-terminal into which
an epoch (GGA, GSA, two GSV, RMC) is written every 100 ms, stamped with the time of day."""
import os, socket, threading, time, tty


def sentence(body):
    checksum = 0
    for byte in body.encode():
        checksum ^= byte
    return f"${body}*{checksum:02X}\r\n"


def epoch(t):
    hms = time.strftime("%H%M%S", time.gmtime(t)) + ".00"
    date = time.strftime("%d%m%y", time.gmtime(t))
    return (sentence(f"GPGGA,{hms},5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,")
            + sentence("GPGSA,A,3,01,02,03,04,05,06,07,08,,,,,1.8,0.9,1.5")
            + sentence("GPGSV,2,1,08,01,40,083,46,02,17,308,41,03,07,344,39,04,22,228,45")
            + sentence("GPGSV,2,2,08,05,40,083,46,06,17,308,41,07,07,344,39,08,22,228,45")
            + sentence(f"GPRMC,{hms},A,5207.4074,N,00419.2659,E,0.0,0.0,{date},,,A")).encode()


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Receiver:
    """`with Receiver() as device:` a pseudo-terminal's path, written to until the block ends."""

    def __enter__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.stop = threading.Event()
        threading.Thread(target=self._feed, daemon=True).start()
        return os.ttyname(self.slave)

    def _feed(self):
        t = time.time() // 1
        while not self.stop.is_set():
            t += 1
            try:
                os.write(self.master, epoch(t))
            except OSError:
                pass
            self.stop.wait(0.1)

    def __exit__(self, *_):
        self.stop.set()
        os.close(self.master)
        os.close(self.slave)
