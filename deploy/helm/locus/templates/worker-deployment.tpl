apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "locus.fullname" . }}-worker
  labels:
    {{- include "locus.labels" . | nindent 4 }}
    app.kubernetes.io/component: worker
spec:
  {{- if not .Values.worker.autoscaling.enabled }}
  replicas: {{ .Values.worker.replicas }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "locus.selectorLabels" (list . "worker") | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "locus.labels" . | nindent 8 }}
        app.kubernetes.io/component: worker
      {{- with .Values.worker.podAnnotations }}
      annotations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    spec:
      serviceAccountName: {{ include "locus.serviceAccountName" . }}
      automountServiceAccountToken: false
      {{- with .Values.imagePullSecrets }}
      imagePullSecrets:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      securityContext:
        {{- toYaml .Values.podSecurityContext | nindent 8 }}
      terminationGracePeriodSeconds: {{ .Values.worker.terminationGracePeriodSeconds }}
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              {{- include "locus.selectorLabels" (list . "worker") | nindent 14 }}
      containers:
        # No probe: the worker serves no health endpoint (at most /metrics, worker.metricsPort).
        # It exits on a fatal error (and is restarted), and the API's /api/v1/health reports its
        # heartbeat (checks.worker).
        - name: worker
          image: {{ include "locus.image" . }}
          imagePullPolicy: {{ .Values.image.pullPolicy }}
          command: ['node', '--import', 'tsx', 'services/worker/src/main.ts']
          {{- with .Values.worker.metricsPort }}
          ports:
            - name: metrics
              containerPort: {{ . }}
              protocol: TCP
          {{- end }}
          env:
            {{- include "locus.env" . | trim | nindent 12 }}
            {{- with .Values.worker.metricsPort }}
            - name: WORKER_METRICS_PORT
              value: {{ . | quote }}
            {{- end }}
          envFrom:
            {{- include "locus.envFrom" . | nindent 12 }}
          resources:
            {{- toYaml .Values.worker.resources | nindent 12 }}
          securityContext:
            {{- toYaml .Values.securityContext | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        - name: tmp
          emptyDir: {}
      {{- with .Values.worker.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.worker.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.worker.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
