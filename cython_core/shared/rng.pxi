# Deterministic randomness: xoshiro256** seeded by splitmix64. Integer-only, so the same seed gives the same
# stream on every machine.

cdef struct Rng:
    uint64_t s0, s1, s2, s3


cdef inline uint64_t _rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += <uint64_t>0x9E3779B97F4A7C15
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    r.s0 = splitmix64(&seed)
    r.s1 = splitmix64(&seed)
    r.s2 = splitmix64(&seed)
    r.s3 = splitmix64(&seed)


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    cdef uint64_t result = _rotl(r.s1 * 5, 7) * 9
    cdef uint64_t t = r.s1 << 17
    r.s2 ^= r.s0
    r.s3 ^= r.s1
    r.s1 ^= r.s2
    r.s0 ^= r.s3
    r.s2 ^= t
    r.s3 = _rotl(r.s3, 45)
    return result


cdef inline int rng_below(Rng* r, int n) noexcept nogil:
    """Uniform int in [0, n) (n >= 1), by Lemire's multiply-shift with rejection: exact and portable."""
    cdef uint64_t x = rng_next(r) >> 32
    cdef uint64_t m = x * <uint64_t>n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < <uint32_t>n:
        threshold = <uint32_t>(-n) % <uint32_t>n
        while low < threshold:
            x = rng_next(r) >> 32
            m = x * <uint64_t>n
            low = <uint32_t>m
    return <int>(m >> 32)


cdef inline void rng_shuffle_u8(Rng* r, uint8_t* a, int n) noexcept nogil:
    """Fisher-Yates, from the end."""
    cdef int i, j
    cdef uint8_t t
    for i in range(n - 1, 0, -1):
        j = rng_below(r, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t
