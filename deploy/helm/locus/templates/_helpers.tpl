{{/* The chart's name, and the release's full name (63 characters at most, a DNS label). */}}
{{- define "locus.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "locus.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "locus.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
app.kubernetes.io/name: {{ include "locus.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component (api, worker, migrate): call with (list $ "api"). */}}
{{- define "locus.selectorLabels" -}}
{{- $top := index . 0 -}}
app.kubernetes.io/name: {{ include "locus.name" $top }}
app.kubernetes.io/instance: {{ $top.Release.Name }}
app.kubernetes.io/component: {{ index . 1 }}
{{- end -}}

{{- define "locus.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "locus.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "locus.image" -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/*
The environment every Locus container gets: the non-secret configuration (inline, so that a
change rolls the pods), then the database and Redis URLs from their Secrets.
*/}}
{{- define "locus.env" -}}
{{- range $name, $value := .Values.config }}
{{- if ne (toString $value) "" }}
- name: {{ $name }}
  value: {{ toString $value | quote }}
{{- end }}
{{- end }}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      name: {{ required "database.existingSecret: name the Secret that holds DATABASE_URL" .Values.database.existingSecret }}
      key: {{ .Values.database.existingSecretKey }}
{{- if .Values.redis.existingSecret }}
- name: REDIS_URL
  valueFrom:
    secretKeyRef:
      name: {{ .Values.redis.existingSecret }}
      key: {{ .Values.redis.existingSecretKey }}
{{- else }}
- name: REDIS_URL
  value: {{ required "redis.url or redis.existingSecret is required" .Values.redis.url | quote }}
{{- end }}
{{- end -}}

{{/* The Secret of the application's own secrets, as environment variables. */}}
{{- define "locus.envFrom" -}}
- secretRef:
    name: {{ required "secrets.existingSecret: name the Secret with MFA_ENCRYPTION_KEY, EVIDENCE_SIGNING_KEY and the providers' keys" .Values.secrets.existingSecret }}
{{- end -}}
