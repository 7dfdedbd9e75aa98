package runtime

// NodeStem exports nodeStem to the external tests.
var NodeStem = nodeStem
