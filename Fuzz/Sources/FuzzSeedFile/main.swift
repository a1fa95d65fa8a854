import BowTieKit
import BowTieModel
import FuzzSupport

_ = emptyStore
runLibFuzzer { data in
  for format in SeedFile.Format.allCases {
    check(data, as: format)
  }
}
