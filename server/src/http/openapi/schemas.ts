import * as contract from '@pagewatch/contract';
import { z } from 'zod';

export type Json = Record<string, unknown>;
export type Io = 'input' | 'output';

const PREFIX = '#/components/schemas/';

function walk(value: unknown, visit: (node: Json) => void): void {
  if (Array.isArray(value)) for (const v of value) walk(v, visit);
  else if (value && typeof value === 'object') {
    visit(value as Json);
    for (const v of Object.values(value)) walk(v, visit);
  }
}

/** Every `#/components/schemas/…` name a JSON value refers to. */
export function schemaRefs(value: unknown): Set<string> {
  const found = new Set<string>();
  walk(value, (node) => {
    if (typeof node.$ref === 'string' && node.$ref.startsWith(PREFIX))
      found.add(node.$ref.slice(PREFIX.length));
  });
  return found;
}

/** `z.int()` bounds every integer by ±2^53-1: noise to readers, and example generators pick it. */
function dropSafeIntegerBounds(jsonSchema: Json): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

/** A zod schema written out in place (a parameter's), as it is sent. */
export function inlineSchema(schema: z.ZodType): Json {
  const { $schema: _, ...json } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ jsonSchema }) => dropSafeIntegerBounds(jsonSchema),
  });
  return json;
}

/** A prefault its own schema refuses (`{}` for secrets with required keys) is no default: the field must be sent. */
function requirePrefaults(shape: Record<string, z.core.$ZodType>, jsonSchema: Json): void {
  const properties = (jsonSchema.properties ?? {}) as Record<string, Json>;
  for (const [key, field] of Object.entries(shape)) {
    if (field._zod.def.type !== 'prefault' || z.safeParse(field, undefined).success) continue;
    jsonSchema.required = [...new Set([...((jsonSchema.required as string[]) ?? []), key])];
    delete properties[key]?.default;
  }
}

/**
 * Answers are open to new fields: only strict objects (request shapes) keep
 * `additionalProperties: false`. A record over an enum names its keys as properties, so
 * readers see what `required` lists.
 */
function adjust(io: Io) {
  return ({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodTypes; jsonSchema: Json }) => {
    dropSafeIntegerBounds(jsonSchema);
    const def = zodSchema._zod.def;
    const keys = jsonSchema.required as string[] | undefined;
    if (def.type === 'record' && keys && jsonSchema.additionalProperties) {
      jsonSchema.properties = Object.fromEntries(
        keys.map((k) => [k, jsonSchema.additionalProperties]),
      );
    }
    if (io === 'input' && def.type === 'object') requirePrefaults(def.shape, jsonSchema);
    if (io !== 'output' || def.type !== 'object' || jsonSchema.additionalProperties !== false)
      return;
    if (def.catchall?._zod.def.type !== 'never') delete jsonSchema.additionalProperties;
  };
}

/**
 * The document's named schemas: every zod schema the contract exports, under its export name,
 * plus route-local shapes named by their operation. A schema whose request form differs from
 * its answer form (defaults are optional when sent, always present when answered) gets a second
 * component, `<Name>Input`, and request bodies refer to that one.
 */
export class SchemaComponents {
  private readonly registry = z.registry<{ id: string }>();
  private readonly converted = new Map<Io, Record<string, Json>>();
  private readonly differs = new Set<string>();
  /** `io id` of every schema an operation refers to. */
  private readonly used = new Set<string>();

  constructor() {
    for (const [name, value] of Object.entries(contract))
      if (value instanceof z.ZodType && !this.registry.has(value))
        this.registry.add(value, { id: name });
  }

  /** Names a route's own shape (e.g. `{ items: User[] }`) unless the contract already did. */
  name(schema: z.ZodType, id: string): void {
    if (!this.registry.has(schema)) this.registry.add(schema, { id });
  }

  /** A schema written out in place (small ones: a parameter's), as it is sent. */
  inline(schema: z.ZodType): Json {
    return inlineSchema(schema);
  }

  /** Converts every named schema; call once all names are in, before `ref`. */
  build(): void {
    for (const io of ['output', 'input'] as const) {
      const { schemas } = z.toJSONSchema(this.registry, {
        io,
        unrepresentable: 'any',
        target: 'draft-2020-12',
        uri: (id) => `${PREFIX}${id}`,
        override: adjust(io),
      });
      const clean: Record<string, Json> = {};
      for (const [id, json] of Object.entries(schemas)) {
        const { $schema: _s, $id: _i, ...rest } = json as Json;
        clean[id] = rest;
      }
      this.converted.set(io, clean);
    }
    const output = this.converted.get('output') ?? {};
    const input = this.converted.get('input') ?? {};
    for (const id of Object.keys(output))
      if (JSON.stringify(output[id]) !== JSON.stringify(input[id])) this.differs.add(id);
    // A shape that refers to a differing one differs too, since its refs are renamed.
    for (let grew = true; grew;) {
      grew = false;
      for (const id of Object.keys(input)) {
        if (this.differs.has(id)) continue;
        if ([...schemaRefs(input[id])].some((r) => this.differs.has(r))) {
          this.differs.add(id);
          grew = true;
        }
      }
    }
  }

  private componentName(id: string, io: Io): string {
    if (!this.differs.has(id)) return id;
    if (io === 'input') return id.endsWith('Input') ? id : `${id}Input`;
    return id.endsWith('Input') ? `${id.slice(0, -'Input'.length)}Parsed` : id;
  }

  /** A `$ref` to this schema's component in the given direction. */
  ref(schema: z.ZodType, io: Io): Json {
    const id = this.registry.get(schema)?.id;
    if (!id) throw new Error('This schema has no component name: name() it first');
    this.used.add(`${io} ${id}`);
    return { $ref: `${PREFIX}${this.componentName(id, io)}` };
  }

  /** Every component a `ref` reached, directly or through others, each under one name. */
  components(): Record<string, Json> {
    const out: Record<string, Json> = {};
    const owner = new Map<string, string>();
    const queue = [...this.used].map((key) => key.split(' ') as [Io, string]);
    while (queue.length > 0) {
      const [io, id] = queue.pop() as [Io, string];
      const name = this.componentName(id, io);
      const taken = owner.get(name);
      if (taken !== undefined && taken !== id)
        throw new Error(`Two schemas would be named ${name}: ${taken} and ${id}`);
      if (out[name]) continue;
      owner.set(name, id);
      const json = structuredClone(this.converted.get(io)?.[id]);
      if (!json) throw new Error(`No schema is named ${id}`);
      walk(json, (node) => {
        if (typeof node.$ref !== 'string' || !node.$ref.startsWith(PREFIX)) return;
        const target = node.$ref.slice(PREFIX.length);
        queue.push([io, target]);
        node.$ref = `${PREFIX}${this.componentName(target, io)}`;
      });
      out[name] = json;
    }
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  }
}
