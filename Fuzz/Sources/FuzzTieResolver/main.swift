import FuzzSupport

expect(known.count == 7 + extraTies.count, "the store holds \(known.count) ties")
runLibFuzzer { check(String(decoding: $0, as: UTF8.self)) }
