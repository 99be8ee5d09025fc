/// The HDR rendition of a gain map written out again in NumPy from the published formulas,
/// independent of forcezoom's code and of lcms2: Adobe's gain-map spec 1.0 / Ultra HDR for
/// hdrgm (recovery = v^(1/gamma), log2 gain = min(1-r) + max r, weight from the display's
/// stops between HDRCapacityMin and Max, (SDR + kSDR) 2^(gain w) - kHDR in linear light),
/// Apple's "Applying Apple HDR effect to your photos" (gain by Rec. 709's inverse OETF,
/// 1 + (h - 1) gain), sRGB's EOTF (IEC 61966-2-1), RGB-to-XYZ matrices from the primaries'
/// chromaticities (SMPTE RP 177), an ICC profile's colorants and curves as ICC.1 states them
/// (a base with a profile: `name.icc`; s15Fixed16 colorants move PQ's dark end by several
/// levels, so the reference reads them rather than P3's nominal primaries), SDR white at 203 cd/m2 (ITU-R BT.2408) and the PQ inverse
/// EOTF (SMPTE ST 2084). Map sampling: bilinear, pixel centres aligned, edges clamped.
///
/// For every `*.json` case in the folder it prints `name maxdiff`: the largest difference, in
/// 16-bit levels, between forcezoom's samples (`name.out`, big-endian) and the formula's,
/// alpha included (8-bit alpha times 257). Cases with `"sdr": true` are also compared with the
/// SDR image in PQ computed with no gain-map code at all (`name-sdr maxdiff`).
enum GainMapReference {
    static let script = #"""
        import glob, json, os, sys
        import numpy as np

        def matrix(prims, white):
            xy = np.array(prims, dtype=np.float64)
            P = np.stack([xy[:, 0] / xy[:, 1], np.ones(3), (1 - xy[:, 0] - xy[:, 1]) / xy[:, 1]])
            wx, wy = white
            W = np.array([wx / wy, 1.0, (1 - wx - wy) / wy])
            return P * np.linalg.solve(P, W)

        D65 = (0.3127, 0.3290)
        M709 = matrix([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)], D65)
        MP3 = matrix([(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], D65)
        M2020 = matrix([(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)], D65)
        TO2020 = {'srgb': np.linalg.inv(M2020) @ M709, 'p3': np.linalg.inv(M2020) @ MP3,
                  'gray': np.linalg.inv(M2020) @ M709}

        # A matrix/TRC ICC profile read as the ICC specification says: colorants (rXYZ, gXYZ,
        # bXYZ, s15Fixed16, D50-adapted) and 'para' curves; relative colorimetric into a
        # BT.2020 made D50-relative by Bradford from D65 (ICC.1 Annex E), D50 = lcms2's PCS white.
        BRADFORD = np.array([[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]])
        D50 = np.array([0.9642, 1.0, 0.8249])

        def to_d50(M):
            src = BRADFORD @ (M @ np.ones(3))
            return np.linalg.inv(BRADFORD) @ np.diag(BRADFORD @ D50 / src) @ BRADFORD @ M

        def icc_tags(path):
            d = open(path, 'rb').read()
            n = int.from_bytes(d[128:132], 'big')
            tags = {}
            for i in range(n):
                e = d[132 + 12 * i:144 + 12 * i]
                off, size = int.from_bytes(e[4:8], 'big'), int.from_bytes(e[8:12], 'big')
                tags[e[:4].decode()] = d[off:off + size]
            return tags

        def s15(b):
            return int.from_bytes(b, 'big', signed=True) / 65536

        def icc_profile(path):
            t = icc_tags(path)
            M = np.array([[s15(t[k][8 + 4 * i:12 + 4 * i]) for i in range(3)] for k in ('rXYZ', 'gXYZ', 'bXYZ')]).T
            curves = []
            for k in ('rTRC', 'gTRC', 'bTRC'):
                c = t[k]
                assert c[:4] == b'para' and int.from_bytes(c[8:10], 'big') == 3, 'para type 3 expected'
                g, a, b, cc, dd = [s15(c[12 + 4 * i:16 + 4 * i]) for i in range(5)]
                curves.append(lambda x, g=g, a=a, b=b, cc=cc, dd=dd:
                              np.where(x >= dd, np.maximum(a * x + b, 0) ** g, cc * x))
            return np.linalg.inv(to_d50(M2020)) @ M, curves

        def srgb_eotf(v):
            return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)

        def rec709_inverse(v):
            return np.where(v < 0.081, v / 4.5, ((v + 0.099) / 1.099) ** (1 / 0.45))

        def pq(linear):
            m1, m2 = 2610 / 16384, 2523 / 4096 * 128
            c1, c2, c3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32
            y = np.clip(linear * 203 / 10000, 0, 1)
            p = y ** m1
            return ((c1 + c2 * p) / (1 + c3 * p)) ** m2

        def taps(n, m):
            u = np.clip((np.arange(n) + 0.5) * m / n - 0.5, 0, m - 1)
            i0 = np.floor(u).astype(int)
            return i0, np.minimum(i0 + 1, m - 1), u - i0

        def at(values, c):
            return values[c] if len(values) > c else values[0]

        def log2_gain(v, k, c):
            if k['scheme'] == 'apple':
                return np.log2(1 + (k['appleHeadroom'] - 1) * rec709_inverse(v))
            r = v ** (1 / at(k['gamma'], c))
            return at(k['min'], c) * (1 - r) + at(k['max'], c) * r

        def weight(k):
            span = k['capMax'] - k['capMin']
            w = min(max((k['stops'] - k['capMin']) / span, 0), 1)
            return 1 - w if k['baseIsHDR'] else w

        def to16(signal):
            return np.round(signal * 65535)

        for case in sorted(glob.glob('*.json')):
            k = json.load(open(case))
            name, W, H = k['name'], k['width'], k['height']
            bc, mc, oc = k['baseChannels'], k['mapChannels'], k['outChannels']
            base = np.fromfile(name + '.base', np.uint8).reshape(H, W, bc).astype(np.float64)
            gmap = np.fromfile(name + '.map', np.uint8).reshape(k['mapHeight'], k['mapWidth'], mc).astype(np.float64)
            out = np.fromfile(name + '.out', '>u2').reshape(H, W, oc).astype(np.float64)
            colours = 1 if bc <= 2 else 3
            to2020 = TO2020.get(k['profile'])
            if os.path.exists(name + '.icc'):
                to2020, curves = icc_profile(name + '.icc')
                lin = np.stack([curves[c](base[:, :, c] / 255) for c in range(3)], axis=2)
            else:
                lin = srgb_eotf(base[:, :, :colours] / 255)
            x0, x1, fx = taps(W, k['mapWidth'])
            y0, y1, fy = taps(H, k['mapHeight'])
            fx, fy = fx[None, :, None], fy[:, None, None]
            top = gmap[y0][:, x0] + (gmap[y0][:, x1] - gmap[y0][:, x0]) * fx
            bottom = gmap[y1][:, x0] + (gmap[y1][:, x1] - gmap[y1][:, x0]) * fx
            sample = (top + (bottom - top) * fy) / 255
            n = 1 if (colours == 1 and mc == 1) else 3
            w = weight(k)
            hdr = np.zeros((H, W, n))
            for c in range(n):
                s = sample[:, :, 0 if mc == 1 else c]
                b = lin[:, :, 0 if colours == 1 else c]
                hdr[:, :, c] = (b + at(k['offsetSDR'], c)) * 2 ** (log2_gain(s, k, c) * w) - at(k['offsetHDR'], c)
            if n == 3:
                hdr = hdr @ to2020.T
            expected = to16(pq(hdr))
            if oc > n:
                expected = np.concatenate([expected, base[:, :, -1:] * 257], axis=2)
            print(name, int(np.abs(out - expected).max()))
            if k.get('sdr'):
                sdr = lin if colours == 1 else lin @ to2020.T
                print(name + '-sdr', int(np.abs(out[:, :, :sdr.shape[2]] - to16(pq(sdr))).max()))
        """#
}
