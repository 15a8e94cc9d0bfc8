#!/usr/bin/env python3
"""Writes the project's own NMEA fixtures (deterministic; run from this folder).

Each log is synthetic: a receiver moving on a known track, so tests can check decoded values
against the numbers below without any third-party recording.
"""
import math, random

def sentence(body):
    checksum = 0
    for c in body.encode():
        checksum ^= c
    return f"${body}*{checksum:02X}\r\n"

def ddmm(value, lat):
    hemi = ("N" if value >= 0 else "S") if lat else ("E" if value >= 0 else "W")
    value = abs(value)
    degrees = int(value)
    minutes = (value - degrees) * 60
    width = 2 if lat else 3
    return f"{degrees:0{width}d}{minutes:09.6f}", hemi

def hhmmss(t):
    return f"{int(t // 3600) % 24:02d}{int(t // 60) % 60:02d}{t % 60:06.3f}"

def sirf_cycle(path, start=3 * 3600 + 7 * 60 + 19, epochs=20):
    """GlobalSat BU-353 style: GGA GSA (GSV every 5 s) RMC, 1 Hz, heading north-east at 5 m/s."""
    lat0, lon0, alt0 = -37.7847883333, 175.3148966667, 59.9
    out = []
    for i in range(epochs):
        t = start + i
        lat = lat0 + i * 5 * math.cos(math.radians(45)) / 111320
        lon = lon0 + i * 5 * math.sin(math.radians(45)) / (111320 * math.cos(math.radians(lat0)))
        la, ns = ddmm(lat, True)
        lo, ew = ddmm(lon, False)
        alt = alt0 + i * 0.5
        out.append(sentence(f"GPGGA,{hhmmss(t)},{la},{ns},{lo},{ew},1,08,1.1,{alt:.1f},M,23.7,M,,0000"))
        out.append(sentence("GPGSA,A,3,17,28,06,01,30,20,26,13,,,,,1.8,1.1,1.5"))
        if i % 5 == 0:
            out.append(sentence("GPGSV,3,1,12,17,72,207,32,28,59,095,31,06,35,347,25,01,29,132,23"))
            out.append(sentence("GPGSV,3,2,12,30,23,011,29,20,17,069,20,26,09,293,23,13,07,304,10"))
            out.append(sentence("GPGSV,3,3,12,11,12,132,04,08,38,008,,02,35,348,,03,14,091,"))
        knots = 5 / (1852 / 3600)
        out.append(sentence(f"GPRMC,{hhmmss(t)},A,{la},{ns},{lo},{ew},{knots:.2f},45.00,311214,,,A"))
    open(path, "w", newline="").write("".join(out))

def ublox_multi(path, epochs=10):
    """u-blox M8/M9 NMEA 4.10 style: RMC VTG GGA GNGSA x4 (system IDs) GSV per constellation and
    signal (BeiDou signal ID B in hex) GLL, 1 Hz, standing still at 52.1 N 4.3 E, 10 m."""
    out = []
    for i in range(epochs):
        t = 12 * 3600 + 30 * 60 + i
        la, ns = ddmm(52.1234567891, True)
        lo, ew = ddmm(4.3210987654, False)
        out.append(sentence(f"GNRMC,{hhmmss(t)[:9]},A,{la},{ns},{lo},{ew},0.012,,050624,,,D,V"))
        out.append(sentence("GNVTG,,T,,M,0.012,N,0.022,K,D"))
        out.append(sentence(f"GNGGA,{hhmmss(t)[:9]},{la},{ns},{lo},{ew},2,12,0.62,10.250,M,47.012,M,,0000"))
        out.append(sentence("GNGSA,A,3,05,13,15,18,23,,,,,,,,1.10,0.62,0.91,1"))
        out.append(sentence("GNGSA,A,3,70,71,80,,,,,,,,,,1.10,0.62,0.91,2"))
        out.append(sentence("GNGSA,A,3,04,09,,,,,,,,,,,1.10,0.62,0.91,3"))
        out.append(sentence("GNGSA,A,3,11,12,,,,,,,,,,,1.10,0.62,0.91,4"))
        out.append(sentence("GPGSV,2,1,06,05,45,120,40,13,60,200,42,15,30,300,38,18,20,050,35,1"))
        out.append(sentence("GPGSV,2,2,06,23,10,010,30,29,05,100,,1"))
        out.append(sentence("GLGSV,1,1,03,70,40,150,36,71,55,250,39,80,12,330,28,1"))
        out.append(sentence("GAGSV,1,1,03,04,33,080,37,09,48,170,40,30,08,280,,7"))
        out.append(sentence("GBGSV,1,1,02,11,50,100,41,12,25,210,36,B"))
        out.append(sentence(f"GNGLL,{la},{ns},{lo},{ew},{hhmmss(t)[:9]},A,D"))
    open(path, "w", newline="").write("".join(out))

def rtk_float(path, epochs=20):
    """An RTK receiver fed corrections (a ZED-F9P's NMEA 4.11): RMC GGA GSA GSV GLL at 1 Hz,
    standing still at 48.1 N 11.5 E; GGA quality 5 (RTK float) with corrections 1.2 s old from
    station 0042, RMC and GLL mode F."""
    out = []
    for i in range(epochs):
        t = 9 * 3600 + i
        la, ns = ddmm(48.1173, True)
        lo, ew = ddmm(11.5166667, False)
        out.append(sentence(f"GNRMC,{hhmmss(t)[:9]},A,{la},{ns},{lo},{ew},0.005,,240926,,,F,V"))
        out.append(sentence(f"GNGGA,{hhmmss(t)[:9]},{la},{ns},{lo},{ew},5,10,0.55,519.300,M,47.400,M,1.2,0042"))
        out.append(sentence("GNGSA,A,3,02,05,12,15,25,29,,,,,,,1.00,0.55,0.83,1"))
        out.append(sentence("GNGSA,A,3,65,66,81,88,,,,,,,,,1.00,0.55,0.83,2"))
        out.append(sentence("GPGSV,2,1,06,02,45,120,44,05,60,200,46,12,30,300,41,15,20,050,39,1"))
        out.append(sentence("GPGSV,2,2,06,25,35,010,42,29,15,100,36,1"))
        out.append(sentence("GLGSV,1,1,04,65,40,150,40,66,55,250,43,81,22,330,35,88,18,060,33,1"))
        out.append(sentence(f"GNGLL,{la},{ns},{lo},{ew},{hhmmss(t)[:9]},A,F"))
    open(path, "w", newline="").write("".join(out))

def hostile(path):
    """Valid sentences interleaved with UBX binary frames, noise, bad checksums, truncations,
    an overlong line and bare CR / LF line ends."""
    random.seed(7)
    good = [sentence(f"GPGGA,1200{s:02d}.00,5207.407407,N,00419.265926,E,1,08,0.9,10.2,M,47.0,M,,") for s in range(10)]
    good += [sentence(f"GPRMC,1200{s:02d}.00,A,5207.407407,N,00419.265926,E,0.00,,050624,,,A") for s in range(10)]
    parts = []
    for g in good:
        parts.append(g.encode())
        kind = random.randrange(6)
        if kind == 0:
            payload = bytes(random.randrange(256) for _ in range(40))
            parts.append(b"\xb5\x62\x01\x07" + len(payload).to_bytes(2, "little") + payload + b"\x00\x00")
        elif kind == 1:
            parts.append(bytes(random.randrange(256) for _ in range(random.randrange(1, 30))))
        elif kind == 2:
            parts.append(b"$GPGGA,120000.00,5207.4074,N,00419.2659,E,1,08,0.9,10.2,M,47.0,M,,*00\r\n")
        elif kind == 3:
            parts.append(b"$GPRMC,1200")
        elif kind == 4:
            parts.append(b"$GPTXT," + b"A" * 400 + b"\r\n")
        else:
            parts.append(g.replace("\r\n", "\r").encode())
    open(path, "wb").write(b"".join(parts))

if __name__ == "__main__":
    sirf_cycle("sirf-cycle.nmea")
    ublox_multi("ublox-multi.nmea")
    rtk_float("rtk-float.nmea")
    hostile("hostile.bin")
