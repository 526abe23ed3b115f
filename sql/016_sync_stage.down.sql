-- Undo 016_sync_stage.sql (the trigger docs_section_version_bump goes with its function file).
drop trigger if exists docs_section_version_bump on public.docs_section;
drop table if exists public.docs_section_stage, public.docs_sync_generation, public.docs_index_version;
