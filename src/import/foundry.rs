//! Foundry VTT scene exports to an Arbiter encounter.
