"""Operations on the index: status, sync jobs (one at a time, recorded), re-checks, clearing."""
