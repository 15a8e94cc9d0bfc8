import Platform

/// Metres between two positions (degrees) along the WGS-84 ellipsoid: Vincenty's inverse
/// formula, as gpsd uses for the speed it derives, so that a derived speed agrees with gpsd's
/// to the millimetre per second rather than to the 0.3% a sphere is off by.
///
/// Vincenty's iteration does not converge for nearly antipodal points; then, and only then,
/// the distance on a sphere of the mean radius is returned.
func ellipsoidDistance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
    let a = 6_378_137.0
    let f = 1 / 298.257_223_563
    let b = (1 - f) * a
    let radians = Double.pi / 180
    let l = (longitude2 - longitude1) * radians
    let u1 = atan((1 - f) * tan(latitude1 * radians)), u2 = atan((1 - f) * tan(latitude2 * radians))
    let sinU1 = sin(u1), cosU1 = cos(u1), sinU2 = sin(u2), cosU2 = cos(u2)
    var lambda = l
    for _ in 0..<200 {
        let sinLambda = sin(lambda), cosLambda = cos(lambda)
        let crossTerm = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
        let sinSigma = ((cosU2 * sinLambda) * (cosU2 * sinLambda) + crossTerm * crossTerm).squareRoot()
        if sinSigma == 0 { return 0 }
        let cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
        let sigma = atan2(sinSigma, cosSigma)
        let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
        let cosSquaredAlpha = 1 - sinAlpha * sinAlpha
        // On the equator the term is undefined and drops out.
        let cos2SigmaM = cosSquaredAlpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha
        let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
        let previous = lambda
        lambda = l + (1 - c) * f * sinAlpha
            * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
        guard abs(lambda - previous) < 1e-12 else { continue }
        let uSquared = cosSquaredAlpha * (a * a - b * b) / (b * b)
        let bigA = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
        let bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
        let deltaSigma = bigB * sinSigma * (cos2SigmaM + bigB / 4 * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
            - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return b * bigA * (sigma - deltaSigma)
    }
    return sphereDistance(latitude1, longitude1, latitude2, longitude2)
}

/// Metres between two nearby positions (degrees), on a plane tangent to a sphere of the
/// WGS-84 mean radius: within 0.5% of the ellipsoid's distance over the few kilometres
/// between two fixes, at one cosine rather than the dozens of calls Vincenty's iteration
/// makes: to tell whether a fix moved by more than a few metres.
func nearbyDistance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
    let radians = Double.pi / 180
    var longitudeChange = (longitude2 - longitude1).magnitude
    if longitudeChange > 180 { longitudeChange = 360 - longitudeChange }
    let east = longitudeChange * radians * cos((latitude1 + latitude2) / 2 * radians)
    let north = (latitude2 - latitude1) * radians
    return 6_371_008.8 * (east * east + north * north).squareRoot()
}

/// Metres between two positions on a sphere of the WGS-84 mean radius (haversine).
private func sphereDistance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
    let radians = Double.pi / 180
    let sinHalfLatitude = sin((latitude2 - latitude1) * radians / 2)
    let sinHalfLongitude = sin((longitude2 - longitude1) * radians / 2)
    let h = sinHalfLatitude * sinHalfLatitude
        + cos(latitude1 * radians) * cos(latitude2 * radians) * sinHalfLongitude * sinHalfLongitude
    return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
}

/// WGS 84 geodetic coordinates (degrees, metres above the ellipsoid) of an Earth-centred,
/// Earth-fixed position (metres): Bowring's closed form, good to well under a millimetre
/// anywhere near the Earth's surface.
func wgs84(fromECEF position: (x: Double, y: Double, z: Double)) -> (latitude: Double, longitude: Double, height: Double) {
    let a = 6_378_137.0
    let f = 1 / 298.257_223_563
    let b = a * (1 - f)
    let e2 = f * (2 - f)
    let ep2 = (a * a - b * b) / (b * b)
    let p = (position.x * position.x + position.y * position.y).squareRoot()
    let theta = atan2(position.z * a, p * b)
    let sinTheta = sin(theta), cosTheta = cos(theta)
    let latitude = atan2(position.z + ep2 * b * sinTheta * sinTheta * sinTheta,
                         p - e2 * a * cosTheta * cosTheta * cosTheta)
    let longitude = atan2(position.y, position.x)
    let sinLatitude = sin(latitude)
    let n = a / (1 - e2 * sinLatitude * sinLatitude).squareRoot()
    let cosLatitude = cos(latitude)
    // Near the poles the cosine vanishes: the height from the z axis instead.
    let height = abs(cosLatitude) > 1e-9 ? p / cosLatitude - n : abs(position.z) / abs(sinLatitude) - n * (1 - e2)
    let degrees = 180 / Double.pi
    return (latitude * degrees, longitude * degrees, height)
}

/// An Earth-centred, Earth-fixed velocity (m/s) as north, east and down components at a
/// position (degrees).
func northEastDown(fromECEF velocity: (x: Double, y: Double, z: Double), latitude: Double, longitude: Double)
    -> (north: Double, east: Double, down: Double) {
    let radians = Double.pi / 180
    let sinLatitude = sin(latitude * radians), cosLatitude = cos(latitude * radians)
    let sinLongitude = sin(longitude * radians), cosLongitude = cos(longitude * radians)
    let north = -sinLatitude * cosLongitude * velocity.x - sinLatitude * sinLongitude * velocity.y + cosLatitude * velocity.z
    let east = -sinLongitude * velocity.x + cosLongitude * velocity.y
    let up = cosLatitude * cosLongitude * velocity.x + cosLatitude * sinLongitude * velocity.y + sinLatitude * velocity.z
    return (north, east, -up)
}

/// The angle of (`y` east, `x` north), degrees.
func atan2Degrees(_ y: Double, _ x: Double) -> Double { atan2(y, x) * 180 / .pi }
