import { describe, expect, it } from 'vitest';
import { synthesizePack } from '../../scripts/atlas-synth.js';
import { ENTITY_KINDS, validatePack } from '../../src/atlas/pack.js';
import { FIXTURE_ID, fixtureFiles, fixturePack } from './helpers.js';

const invalid = (mutate: (files: ReturnType<typeof fixtureFiles>) => void) => {
  const files = fixtureFiles();
  mutate(files);
  const result = validatePack(files, FIXTURE_ID);
  if (result.ok) throw new Error('expected the pack to be refused');
  return result.errors;
};

describe('pack validation', () => {
  it('accepts the fixture pack', () => {
    expect(validatePack(fixtureFiles(), FIXTURE_ID)).toMatchObject({ ok: true });
  });

  it('refuses duplicate ids, also across files', () => {
    expect(invalid((f) => f.entities.push({ ...f.entities[0] }))).toEqual(expect.arrayContaining([expect.stringMatching(/duplicate id "person\.walter-gropius"/)]));
    expect(invalid((f) => (f.evidence[0].id = 'rel.gropius-founded-bauhaus'))).toEqual(
      expect.arrayContaining([expect.stringMatching(/evidence\.json: duplicate id "rel\.gropius-founded-bauhaus" \(already used in relationships\.json\)/)]),
    );
  });

  it('refuses an unknown kind, naming the record and field', () => {
    const errors = invalid((f) => (f.entities[1].kind = 'robot'));
    expect(errors.some((e) => e.startsWith('entities.json[1].kind:'))).toBe(true);
  });

  it('refuses names with surrounding whitespace or none at all, and keeps passing records as given', () => {
    expect(invalid((f) => (f.entities[1].displayName = ' Bauhaus'))).toEqual(expect.arrayContaining([expect.stringMatching(/^entities\.json\[1\]\.displayName: no leading or trailing whitespace/)]));
    expect(invalid((f) => (f.entities[1].aliases = ['ok', 'tail '])).some((e) => e.startsWith('entities.json[1].aliases[1]:'))).toBe(true);
    expect(invalid((f) => (f.entities[1].displayName = '')).some((e) => e.startsWith('entities.json[1].displayName:'))).toBe(true);
    const files = fixtureFiles();
    const result = validatePack(files, FIXTURE_ID);
    if (!result.ok) throw new Error(result.errors.join('\n'));
    expect(result.pack.entities.get(files.entities[0].id)).toBe(files.entities[0]);
  });

  it('refuses a confidence outside [0, 1]', () => {
    expect(invalid((f) => (f.relationships[0].confidence = 1.5)).some((e) => e.startsWith('relationships.json[0].confidence:'))).toBe(true);
    expect(invalid((f) => (f.relationships[0].confidence = -0.1)).some((e) => e.startsWith('relationships.json[0].confidence:'))).toBe(true);
  });

  it('refuses evidence that points at an entity that is not a source', () => {
    expect(invalid((f) => (f.evidence[0].sourceEntityId = 'person.marcel-breuer'))).toEqual([
      'evidence.json: "ev.gropius-founded-archive" points at "person.marcel-breuer", which is not a source entity',
    ]);
    expect(invalid((f) => (f.relationships[0].evidenceIds = ['place.weimar']))).toEqual([
      'relationships.json: "rel.gropius-founded-bauhaus" cites evidence "place.weimar", which is not a source entity',
    ]);
  });

  it('refuses evidence for a relationship that does not exist, an id that is not <kind>.<slug>, a bad releasedAt', () => {
    expect(invalid((f) => (f.evidence[0].relationshipId = 'rel.nope'))).toEqual(['evidence.json: "ev.gropius-founded-archive" points at relationship "rel.nope", which does not exist']);
    expect(invalid((f) => (f.entities[0].id = 'person.gropius'))).toEqual(expect.arrayContaining([expect.stringMatching(/must be "<kind>\.<slug>"/)]));
    expect(invalid((f) => (f.manifest.releasedAt = 'last tuesday')).some((e) => e.startsWith('manifest.json.releasedAt:'))).toBe(true);
  });

  it('reports a broken record once, not again through the records that refer to it', () => {
    const errors = invalid((f) => (f.relationships[0].confidence = 1.5));
    expect(errors).toEqual(['relationships.json[0].confidence: Too big: expected number to be <=1']);
  });

  it('refuses unknown record members and a manifest for another pack', () => {
    expect(invalid((f) => (f.entities[0].colour = 'red')).some((e) => e.startsWith('entities.json[0]'))).toBe(true);
    const result = validatePack(fixtureFiles(), 'another-pack');
    expect(result.ok).toBe(false);
  });

  it('skips and counts relationships with a missing endpoint instead of failing', () => {
    const pack = fixturePack();
    expect(pack.manifest.governance.relationshipsSkippedMissingEndpoint).toBe(2);
    expect(pack.relationships.has('rel.gropius-knew-nobody')).toBe(false);
    expect(pack.evidence.has('ev.nobody-droste')).toBe(false);
  });

  it('releases only entities passing the visibility filter, and only what connects released entities', () => {
    const pack = fixturePack();
    expect(pack.entities.has('person.hidden-designer')).toBe(false);
    expect(pack.entitiesBySlug.has('hidden-designer')).toBe(false);
    expect(pack.relationships.has('rel.gropius-mentored-hidden')).toBe(false);
    // A released relationship does not show a hidden source among its citations, nor its evidence.
    expect(pack.relationships.get('rel.bauhaus-in-weimar')!.evidenceIds).toEqual([]);
    expect(pack.evidence.has('ev.weimar-internal')).toBe(false);
  });
});

describe('computed manifest', () => {
  it('equals counts computed independently from the files, ignoring numbers written in the manifest file', () => {
    const files = fixtureFiles();
    const visible = new Set<string>(files.manifest.filter.visibility);
    const ids = new Set(files.entities.map((e) => e.id));
    const released = files.entities.filter((e) => visible.has(e.visibility));
    const releasedIds = new Set(released.map((e) => e.id));
    const loaded = files.relationships.filter((r) => ids.has(r.source) && ids.has(r.target));
    const releasedRels = loaded.filter((r) => releasedIds.has(r.source) && releasedIds.has(r.target));
    const releasedRelIds = new Set(releasedRels.map((r) => r.id));
    const evidenced = loaded.filter((r) => r.evidenceIds.length > 0 || files.evidence.some((ev) => ev.relationshipId === r.id));
    const counts: Record<string, number> = Object.fromEntries(ENTITY_KINDS.map((k) => [k, released.filter((e) => e.kind === k).length]));

    const { manifest } = fixturePack();
    expect(manifest.counts).toEqual({
      ...counts,
      entities: released.length,
      relationships: releasedRels.length,
      evidence: files.evidence.filter((ev) => releasedRelIds.has(ev.relationshipId) && releasedIds.has(ev.sourceEntityId)).length,
    });
    expect(manifest.releasedEntityIds).toEqual([...releasedIds].sort());
    expect(manifest.filter).toEqual({ visibility: ['public'] });
    expect(manifest.governance).toEqual({
      totalEntities: files.entities.length,
      published: released.length,
      withSources: new Set(evidenced.flatMap((r) => [r.source, r.target])).size,
      reviewed: files.entities.filter((e) => e.reviewState === 'reviewed').length,
      aiCandidateRelationships: loaded.filter((r) => r.candidate).length,
      relationshipsSkippedMissingEndpoint: files.relationships.length - loaded.length,
    });
    // And the same numbers, counted by hand from the fixture.
    expect(manifest.governance).toEqual({ totalEntities: 21, published: 19, withSources: 5, reviewed: 17, aiCandidateRelationships: 2, relationshipsSkippedMissingEndpoint: 2 });
    expect(manifest.counts).toMatchObject({ person: 6, work: 3, concept: 4, source: 2, entities: 19, relationships: 10, evidence: 3 });
  });
});

describe('synthetic packs', () => {
  it('are valid, deterministic, and have about three relationships per entity over all seven kinds', () => {
    const a = synthesizePack({ entities: 700, seed: 7, packId: 'synthetic-700' });
    expect(JSON.stringify(synthesizePack({ entities: 700, seed: 7, packId: 'synthetic-700' }))).toBe(JSON.stringify(a));
    expect(JSON.stringify(synthesizePack({ entities: 700, seed: 8, packId: 'synthetic-700' }))).not.toBe(JSON.stringify(a));
    const result = validatePack(a, 'synthetic-700');
    if (!result.ok) throw new Error(result.errors.join('\n'));
    expect(a.entities).toHaveLength(700);
    expect(a.relationships.length / 700).toBeGreaterThan(2.8);
    expect(a.relationships.length / 700).toBeLessThanOrEqual(3);
    for (const kind of ENTITY_KINDS) expect(result.pack.manifest.counts[kind]).toBeGreaterThan(50);
    expect(result.pack.manifest.governance.aiCandidateRelationships).toBeGreaterThan(0);
    expect(result.pack.manifest.counts.evidence).toBeGreaterThan(0);
  });
});
