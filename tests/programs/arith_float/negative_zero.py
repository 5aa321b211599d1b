# expect: ([-0.0, -0.0, 0.0, 0.0, 0.0, -0.0, 0.0, -0.0], True)
def main() -> tuple[list[float], bool]:
    z = 0.0
    nz = -z
    values = [nz, z * -1, abs(nz), nz + z, z - z, -(z), nz * nz, nz / 5]
    return values, nz == z
