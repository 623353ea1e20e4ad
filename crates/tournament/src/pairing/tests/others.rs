//! Round robin, knockout, ladder, errors and the matching.
