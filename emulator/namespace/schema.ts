// A namespace's schema: the id type, the distance metric and one spec per attribute, plus the rules for changing
// it (types never change; filterable, regex, glob and full-text settings may).

import type { DistanceMetric } from '../../lib/turbopuffer-wire';
import { badRequest } from '../api-error';
import type { FtsConfig } from '../text/config';
import type { AttributeSpec, IdType } from '../wire/schema';
import { describeForMetadata, describeForSchemaRoute, sameType, typeName } from '../wire/schema';

export class NamespaceSchema {
  idType: IdType | null = null;
  distanceMetric: DistanceMetric | null = null;
  readonly attributes = new Map<string, AttributeSpec>();

  attribute(name: string): AttributeSpec | undefined {
    return this.attributes.get(name);
  }

  vectorColumns(): string[] {
    return [...this.attributes].filter(([, spec]) => spec.type.kind === 'vector').map(([name]) => name);
  }

  /** Full-text attributes and their settings (the indexer builds their inverted indexes). */
  fullText(): [string, FtsConfig][] {
    const out: [string, FtsConfig][] = [];
    for (const [name, spec] of this.attributes)
      if (spec.fullTextSearch) out.push([name, spec.fullTextSearch]);
    return out;
  }

  /** Attributes with attribute indexes: filterable scalars and arrays. */
  filterable(): string[] {
    return [...this.attributes]
      .filter(([, s]) => s.filterable && s.type.kind !== 'vector')
      .map(([name]) => name);
  }

  /** The spec a request's schema entry leads to, or a 400 when it would change a type. */
  merge(name: string, incoming: AttributeSpec, current = this.attributes.get(name)): AttributeSpec {
    const { filterableGiven: _, ...entry } = incoming;
    if (!current) return entry;
    if (!sameType(current.type, incoming.type))
      throw badRequest(
        `schema.${name}: the type of an existing attribute cannot change (it is ${typeName(current.type)}, the request says ${typeName(incoming.type)})`,
      );
    return { ...current, ...entry, declared: true };
  }

  /** metadata's `schema`: id first, then attributes in creation order. */
  describeForMetadata(): Record<string, unknown> {
    const out: Record<string, unknown> = { id: { type: this.idType ?? 'uint' } };
    for (const [name, spec] of this.attributes) out[name] = describeForMetadata(spec, this.distanceMetric);
    return out;
  }

  /** GET /v1/namespaces/:ns/schema's body. */
  describeForSchemaRoute(): Record<string, unknown> {
    const out: Record<string, unknown> = {
      id: { type: this.idType ?? 'uint', filterable: null, full_text_search: null },
    };
    for (const [name, spec] of this.attributes) out[name] = describeForSchemaRoute(spec);
    return out;
  }
}
