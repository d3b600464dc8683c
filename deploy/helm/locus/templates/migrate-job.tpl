{{- if .Values.migrations.enabled }}
# Before every install and upgrade Helm runs this Job and waits for it; a failed migration
# stops the release before any new API or worker pod starts. Kysely migrations take a lock, so
# a second run at the same time waits instead of racing.
apiVersion: batch/v1
kind: Job
metadata:
  name: {{ include "locus.fullname" . }}-migrate
  labels:
    {{- include "locus.labels" . | nindent 4 }}
    app.kubernetes.io/component: migrate
  annotations:
    helm.sh/hook: pre-install,pre-upgrade
    helm.sh/hook-weight: '0'
    # A failed Job stays for `kubectl logs` until the next attempt replaces it.
    helm.sh/hook-delete-policy: before-hook-creation,hook-succeeded
spec:
  backoffLimit: {{ .Values.migrations.backoffLimit }}
  activeDeadlineSeconds: {{ .Values.migrations.activeDeadlineSeconds }}
  template:
    metadata:
      labels:
        {{- include "locus.selectorLabels" (list . "migrate") | nindent 8 }}
    spec:
      restartPolicy: Never
      # A pre-install hook runs before the chart's ServiceAccount exists: the namespace's
      # default one, with no token (the migration needs no Kubernetes API).
      automountServiceAccountToken: false
      {{- with .Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        {{- toYaml .Values.podSecurityContext | nindent 8 }}
      containers:
        - name: migrate
          image: {{ include "locus.image" . }}
          imagePullPolicy: {{ .Values.image.pullPolicy }}
          command: ['node', '--import', 'tsx', 'deploy/migrate.ts']
          env:
            # The configuration and the two URLs; no application secret.
            {{- include "locus.env" . | trim | nindent 12 }}
          resources:
            {{- toYaml .Values.migrations.resources | nindent 12 }}
          securityContext:
            {{- toYaml .Values.securityContext | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir: {}
{{- end }}
